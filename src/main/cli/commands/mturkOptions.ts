import type { ZodType, output } from 'zod'
import { UserError } from '../../../shared/contract/errors'
import { endpointUrl } from '../../mturk/client'
import { type MTurkConnection, connect } from '../../mturk/connect'
import { environmentSecrets, requireCredentials } from '../../mturk/credentials'
import {
  type OptionSpec,
  type ParsedValues,
  UsageError,
  optionalString,
  requireString,
} from '../command'

/** What every MTurk command takes besides its own options. */
export const mturkOptions: OptionSpec = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  endpoint: { type: 'string' },
  profile: { type: 'string' },
}

export const MTURK_USAGE_TAIL = '--db P --endpoint sandbox|production|URL [--profile NAME] [--json]'

/**
 * The endpoint (a usage error when malformed) and a connection signing with the AWS environment
 * variables or `--profile NAME` of the shared credentials file.
 */
export function cliConnection(values: ParsedValues, signal?: AbortSignal): MTurkConnection {
  const endpoint = requireString(values, 'endpoint')
  try {
    endpointUrl(endpoint)
  } catch (error) {
    if (error instanceof UserError) throw new UsageError(`--endpoint: ${error.message}`)
    throw error
  }
  const profile = optionalString(values, 'profile')
  const credentials = requireCredentials(environmentSecrets(profile ? { profile } : {}))
  return connect({ endpoint, credentials, ...(signal ? { signal } : {}) })
}

/** Checks command-line input with the contract's own schema, as a usage error. */
export function parseWith<S extends ZodType>(schema: S, input: unknown): output<S> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.join('.') ?? ''
  throw new UsageError(`${field ? `${field}: ` : ''}${issue?.message ?? 'invalid input'}`)
}

/** Ctrl+C cancels the run (pages stored so far are kept); the handler is removed afterwards. */
export async function cancellable<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const onInterrupt = (): void => controller.abort()
  process.once('SIGINT', onInterrupt)
  try {
    return await run(controller.signal)
  } finally {
    process.off('SIGINT', onInterrupt)
  }
}
