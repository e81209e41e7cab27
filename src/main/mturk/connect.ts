/**
 * An MTurk connection the way the app uses one: the real SDK client with our retry policy and
 * client-side rate limit. Retries happen in one place only — `withBackoff` around each call — so
 * the SDK makes a single attempt (createMTurkClient); otherwise its attempts inside ours would
 * multiply the sends of one request (FORMATS §3.2).
 */
import { type MTurkCredentials, type MTurkEndpoint, createMTurkClient, endpointUrl } from './client'
import type { MTurkContext } from './call'
import { type BackoffOptions, createRateLimiter } from './limiter'

export interface ConnectOptions {
  endpoint: MTurkEndpoint
  credentials: MTurkCredentials
  signal?: AbortSignal
}

export interface MTurkConnection extends MTurkContext {
  /** The URL requests go to. */
  url: string
  close(): void
}

/** The service publishes no limit; this stays well under what requesters report being throttled at. */
const REMOTE_RATE = { perSecond: 10, burst: 10 }
/** Worst case 1 + 8 sends per call, over about a minute against the service. */
const REMOTE_BACKOFF: BackoffOptions = { retries: 8, baseMs: 250, capMs: 20_000 }
/** The stand-in on this machine: faults are injected on purpose, so retry quickly. */
const LOCAL_BACKOFF: BackoffOptions = { retries: 8, baseMs: 5, capMs: 200 }

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

function isLoopback(url: string): boolean {
  return LOOPBACK.has(new URL(url).hostname)
}

export function connect(options: ConnectOptions): MTurkConnection {
  const url = endpointUrl(options.endpoint)
  const local = isLoopback(url)
  const client = createMTurkClient({
    endpoint: url,
    credentials: options.credentials,
    requestTimeoutMs: local ? 10_000 : 30_000,
  })
  const limiter = createRateLimiter('unlimited')
  // The stand-in on this machine is never limited.
  if (!local) limiter.limit(REMOTE_RATE.perSecond, REMOTE_RATE.burst)
  return {
    url,
    client,
    limiter,
    backoff: local ? LOCAL_BACKOFF : REMOTE_BACKOFF,
    ...(options.signal ? { signal: options.signal } : {}),
    close: () => client.destroy(),
  }
}
