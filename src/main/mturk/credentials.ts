/**
 * Where the MTurk access key pair comes from. The project file never holds it: the desktop app
 * keeps it encrypted with the OS keychain (src/main/electron/credentials.ts), the command line and
 * serve mode read the standard AWS environment variables or a named profile of the shared
 * credentials file. A store hands out the pair to sign with and describes itself without it.
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { UserError } from '../../shared/contract/errors'
import type { CredentialInfo, CredentialSource } from '../../shared/contract/mturk'
import type { MTurkCredentials } from './client'

export interface SecretStore {
  /** The key pair to sign with, or null when none is available. */
  read(): MTurkCredentials | null
  /** Where the pair comes from, for the page; never the secret. */
  describe(): CredentialInfo
  /** Absent on read-only stores. */
  save?(credentials: MTurkCredentials): void
  clear?(): void
}

export function credentialInfo(
  source: CredentialSource,
  label: string,
  credentials: MTurkCredentials | null,
  editable: boolean,
): CredentialInfo {
  return {
    source: credentials ? source : 'none',
    label: credentials ? label : 'none set',
    set: credentials !== null,
    accessKeyHint: credentials ? keyHint(credentials.accessKeyId) : null,
    editable,
  }
}

/** `…MPLE`: enough to tell two keys apart on screen, useless to anyone else. */
function keyHint(accessKeyId: string): string {
  return `…${accessKeyId.slice(-4)}`
}

export interface EnvironmentOptions {
  /** `--profile NAME`: read this profile of the shared credentials file, ignoring the keys in env. */
  profile?: string
  env?: NodeJS.ProcessEnv
}

/**
 * The AWS way, read at each use: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`),
 * else the profile named by `--profile`/`AWS_PROFILE` (or `default`) in `AWS_SHARED_CREDENTIALS_FILE`
 * (default `~/.aws/credentials`). An explicit profile wins over the environment keys.
 */
export function environmentSecrets(options: EnvironmentOptions = {}): SecretStore {
  const env = options.env ?? process.env
  const resolve = (): {
    credentials: MTurkCredentials
    label: string
    source: CredentialSource
  } | null => {
    if (!options.profile && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
      return {
        credentials: {
          accessKeyId: env.AWS_ACCESS_KEY_ID,
          secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
          ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
        },
        label: 'environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)',
        source: 'environment',
      }
    }
    const name = options.profile ?? env.AWS_PROFILE ?? 'default'
    const file = env.AWS_SHARED_CREDENTIALS_FILE ?? join(homedir(), '.aws', 'credentials')
    const credentials = readProfile(file, name, options.profile !== undefined)
    return credentials && { credentials, label: `profile "${name}" of ${file}`, source: 'profile' }
  }
  return {
    read: () => resolve()?.credentials ?? null,
    describe: () => {
      const found = resolve()
      return credentialInfo(
        found?.source ?? 'none',
        found?.label ?? '',
        found?.credentials ?? null,
        false,
      )
    },
  }
}

/**
 * Serve mode: the environment, unless the page entered a pair, which is then kept in this
 * process's memory only and forgotten when it stops.
 */
export function sessionSecrets(fallback: SecretStore): SecretStore {
  let entered: MTurkCredentials | null = null
  return {
    read: () => entered ?? fallback.read(),
    describe: () =>
      entered
        ? credentialInfo(
            'session',
            'entered on this page; kept in memory until Winnow stops',
            entered,
            true,
          )
        : { ...fallback.describe(), editable: true },
    save: (credentials) => {
      entered = { ...credentials }
    },
    clear: () => {
      entered = null
    },
  }
}

/**
 * One profile of an AWS shared credentials file (INI). A missing file or profile is null unless the
 * profile was named explicitly, which is then a clear error.
 */
function readProfile(file: string, name: string, required: boolean): MTurkCredentials | null {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    if (!required) return null
    throw credentialsError(`No shared credentials file at ${file} (for profile "${name}").`)
  }
  const values = parseIni(text).get(name)
  const accessKeyId = values?.get('aws_access_key_id')
  const secretAccessKey = values?.get('aws_secret_access_key')
  if (!accessKeyId || !secretAccessKey) {
    if (!required) return null
    throw credentialsError(
      `Profile "${name}" in ${file} has no aws_access_key_id and aws_secret_access_key.`,
    )
  }
  const sessionToken = values?.get('aws_session_token')
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }
}

/** `[name]` sections of `key = value` lines; `#`/`;` comments; `[profile name]` read as `name`. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>()
  let current: Map<string, string> | undefined
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const section = /^\[\s*(?:profile\s+)?([^\]]+?)\s*\]$/.exec(line)
    if (section?.[1]) {
      current = sections.get(section[1]) ?? new Map<string, string>()
      sections.set(section[1], current)
      continue
    }
    const eq = line.indexOf('=')
    if (current && eq > 0)
      current.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim())
  }
  return sections
}

function credentialsError(message: string): UserError {
  return new UserError({ type: 'invalid-argument', code: 'mturk-credentials', message })
}

/** The pair a call should sign with, or a clear error saying where to put one. */
export function requireCredentials(store: SecretStore): MTurkCredentials {
  const credentials = store.read()
  if (credentials) return credentials
  throw new UserError({
    type: 'invalid-argument',
    code: 'mturk-no-credentials',
    message:
      'No MTurk access key is set. Enter one in Mechanical Turk ▸ Connection, or set ' +
      'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or --profile NAME) for the command line and serve mode.',
  })
}
