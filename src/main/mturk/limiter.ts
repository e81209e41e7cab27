/**
 * Client-side pacing for MTurk: a token bucket (the service publishes no rate limit, so we keep
 * our own) and a jittered exponential backoff for throttling, 5xx and dropped connections that
 * sits on top of the SDK's own few retries. Both stop waiting the moment the signal aborts.
 */

export interface RateLimiter {
  /** Resolves when a request may go out; rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void>
  /** Sets or restores a limit of `ratePerSecond` with bursts of up to `burst` requests. */
  limit(ratePerSecond: number, burst?: number): void
}

export interface LimiterOptions {
  ratePerSecond: number
  burst?: number
  /** Milliseconds; injectable for tests. */
  now?: () => number
}

/**
 * GCRA form of the token bucket: each request reserves the next slot up front, so waiting callers
 * are served in order without a queue.
 */
export function createRateLimiter(options: LimiterOptions | 'unlimited'): RateLimiter {
  const now = options === 'unlimited' ? Date.now : (options.now ?? Date.now)
  let interval = 0
  let tolerance = 0
  let nextSlot = 0
  let unlimited = true
  const limiter: RateLimiter = {
    limit(ratePerSecond, burst = 1) {
      if (!(ratePerSecond > 0) || !(burst >= 1)) throw new RangeError('rate and burst must be > 0')
      interval = 1000 / ratePerSecond
      tolerance = (Math.floor(burst) - 1) * interval
      nextSlot = 0
      unlimited = false
    },
    async acquire(signal) {
      signal?.throwIfAborted()
      if (unlimited) return
      const t = now()
      nextSlot = Math.max(nextSlot, t)
      const wait = nextSlot - tolerance - t
      nextSlot += interval
      if (wait > 0) await sleep(wait, signal)
    },
  }
  if (options !== 'unlimited') limiter.limit(options.ratePerSecond, options.burst)
  return limiter
}

export interface BackoffOptions {
  /** Retries after the first attempt; default 4. */
  retries?: number
  /** First delay before jitter; default 200 ms (throttling waits twice as long). */
  baseMs?: number
  /** Longest single delay; default 20 s. */
  capMs?: number
  random?: () => number
}

const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'SlowDown',
  'LimitExceededException',
  'RequestThrottled',
  'RequestThrottledException',
])
const TRANSIENT_STATUS = new Set([429, 500, 502, 503, 504])
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN'])
const TRANSIENT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException'])

interface ErrorShape {
  name?: unknown
  code?: unknown
  $metadata?: { httpStatusCode?: number }
}

function isThrottling(error: unknown): boolean {
  const e = error as ErrorShape | null
  return typeof e?.name === 'string' && THROTTLING.has(e.name)
}

/** Worth another try: throttling, 5xx, timeouts and connection-level failures — never 4xx. */
export function isRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const e = error as ErrorShape
  if (e.name === 'AbortError') return false
  const status = e.$metadata?.httpStatusCode
  return (
    isThrottling(e) ||
    (status !== undefined && TRANSIENT_STATUS.has(status)) ||
    (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) ||
    (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name))
  )
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error or runs out of retries.
 * `attempt` receives the attempt number (1-based).
 */
export async function withBackoff<T>(
  attempt: (n: number) => Promise<T>,
  options: BackoffOptions & { signal?: AbortSignal } = {},
): Promise<T> {
  const retries = options.retries ?? 4
  const base = options.baseMs ?? 200
  const cap = options.capMs ?? 20_000
  const random = options.random ?? Math.random
  for (let n = 1; ; n++) {
    options.signal?.throwIfAborted()
    try {
      return await attempt(n)
    } catch (error) {
      if (n > retries || !isRetryable(error) || options.signal?.aborted) throw error
      const ceiling = Math.min(cap, (isThrottling(error) ? 2 : 1) * base * 2 ** (n - 1))
      await sleep(random() * ceiling, options.signal)
    }
  }
}

/** setTimeout as a promise that rejects with the signal's reason on abort. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal?.reason as Error)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
