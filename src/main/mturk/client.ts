/**
 * The real `@aws-sdk/client-mturk` client, configured the one safe way (FORMATS §3.1): region
 * us-east-1, explicit credentials (the default chain probes env, ~/.aws and instance metadata and
 * can hang offline), and an endpoint we chose.
 */
import { MTurkClient, type MTurkClientConfig } from '@aws-sdk/client-mturk'
import { UserError } from '../../shared/contract/errors'

export type MTurkEndpoint = 'sandbox' | 'production' | (string & {})

export interface MTurkCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

export interface MTurkClientOptions {
  endpoint: MTurkEndpoint
  credentials: MTurkCredentials
  /** Socket idle timeout per request in ms (default 30 s), so a stalled answer becomes a retry. */
  requestTimeoutMs?: number
}

export const MTURK_ENDPOINTS = {
  production: 'https://mturk-requester.us-east-1.amazonaws.com',
  sandbox: 'https://mturk-requester-sandbox.us-east-1.amazonaws.com',
} as const

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Maps `sandbox`/`production` to the service URLs; a custom URL must be https or loopback http. */
export function endpointUrl(endpoint: MTurkEndpoint): string {
  if (endpoint === 'sandbox') return MTURK_ENDPOINTS.sandbox
  if (endpoint === 'production') return MTURK_ENDPOINTS.production
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw badEndpoint(`Not a URL: ${endpoint}`)
  }
  const secure = url.protocol === 'https:'
  if (!secure && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw badEndpoint('A custom endpoint must use https, or http on this machine (127.0.0.1).')
  }
  if (url.username || url.password) throw badEndpoint('The endpoint URL must not carry a user.')
  return url.origin
}

function badEndpoint(message: string): UserError {
  return new UserError({ type: 'invalid-argument', code: 'mturk-endpoint', message })
}

export function createMTurkClient(options: MTurkClientOptions): MTurkClient {
  const { accessKeyId, secretAccessKey, sessionToken } = options.credentials
  if (!accessKeyId || !secretAccessKey) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'mturk-credentials',
      message: 'Both the access key id and the secret access key are needed.',
    })
  }
  const config: MTurkClientConfig = {
    region: 'us-east-1',
    endpoint: endpointUrl(options.endpoint),
    // A provider function rather than a plain object: the keys stay in this closure and never
    // show up when the client's configuration is inspected or serialised.
    credentials: () =>
      Promise.resolve({ accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) }),
    // One attempt: retries happen in one place only, `withBackoff` around each call (connect.ts).
    maxAttempts: 1,
    requestHandler: { requestTimeout: options.requestTimeoutMs ?? 30_000 },
  }
  return new MTurkClient(config)
}
