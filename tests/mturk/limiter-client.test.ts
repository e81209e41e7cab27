import { GetAccountBalanceCommand } from '@aws-sdk/client-mturk'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MTURK_ENDPOINTS, createMTurkClient, endpointUrl } from '../../src/main/mturk/client'
import { createRateLimiter, isRetryable, withBackoff } from '../../src/main/mturk/limiter'
import { CREDENTIALS, useStandin } from './standin-helpers'

const start = useStandin()

describe('rate limiter', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('lets a burst through, then spaces requests by the rate, in order', async () => {
    vi.useFakeTimers()
    const limiter = createRateLimiter({ ratePerSecond: 10, burst: 3, now: () => Date.now() })
    const done: number[] = []
    const all = Array.from({ length: 6 }, (_, i) => limiter.acquire().then(() => done.push(i)))
    await vi.advanceTimersByTimeAsync(0)
    expect(done).toEqual([0, 1, 2])
    await vi.advanceTimersByTimeAsync(100)
    expect(done).toEqual([0, 1, 2, 3])
    await vi.advanceTimersByTimeAsync(200)
    await Promise.all(all)
    expect(done).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('is cancellable while waiting, and an unlimited one never waits', async () => {
    vi.useFakeTimers()
    const limiter = createRateLimiter({ ratePerSecond: 1, now: () => Date.now() })
    await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort(new Error('cancelled by the user'))
    await expect(waiting).rejects.toThrow('cancelled by the user')
    const unlimited = createRateLimiter('unlimited')
    let passed = 0
    await Promise.all(Array.from({ length: 100 }, () => unlimited.acquire().then(() => passed++)))
    expect(passed).toBe(100)
  })
})

describe('withBackoff', () => {
  const error = (name: string, status?: number, code?: string) =>
    Object.assign(new Error(name), { name, code, $metadata: { httpStatusCode: status } })

  it('retries throttling, 5xx and dropped connections but never a RequestError', async () => {
    expect(isRetryable(error('ThrottlingException', 400))).toBe(true)
    expect(isRetryable(error('ServiceFault', 500))).toBe(true)
    expect(isRetryable(error('ServiceUnavailable', 503))).toBe(true)
    expect(isRetryable(error('Error', undefined, 'ECONNRESET'))).toBe(true)
    expect(isRetryable(error('RequestError', 400))).toBe(false)
    expect(isRetryable(error('AbortError'))).toBe(false)

    let calls = 0
    const value = await withBackoff(
      () => (++calls < 3 ? Promise.reject(error('ServiceFault', 500)) : Promise.resolve('ok')),
      { baseMs: 1 },
    )
    expect([value, calls]).toEqual(['ok', 3])

    calls = 0
    await expect(
      withBackoff(() => (calls++, Promise.reject(error('RequestError', 400))), { baseMs: 1 }),
    ).rejects.toThrow('RequestError')
    expect(calls).toBe(1)

    calls = 0
    await expect(
      withBackoff(() => (calls++, Promise.reject(error('ServiceFault', 500))), {
        retries: 2,
        baseMs: 1,
      }),
    ).rejects.toThrow('ServiceFault')
    expect(calls).toBe(3)
  })

  it('stops backing off when the signal aborts', async () => {
    const controller = new AbortController()
    const run = withBackoff(() => Promise.reject(error('ThrottlingException', 400)), {
      baseMs: 60_000,
      random: () => 1,
      signal: controller.signal,
    })
    controller.abort(new Error('stop'))
    await expect(run).rejects.toThrow()
  })
})

describe('createMTurkClient', () => {
  it('maps sandbox and production to the service and accepts only safe custom endpoints', () => {
    expect(endpointUrl('sandbox')).toBe(MTURK_ENDPOINTS.sandbox)
    expect(endpointUrl('production')).toBe(MTURK_ENDPOINTS.production)
    expect(endpointUrl('http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000')
    expect(endpointUrl('https://mturk.example.org')).toBe('https://mturk.example.org')
    expect(() => endpointUrl('http://mturk.example.org')).toThrow(/https/)
    expect(() => endpointUrl('not a url')).toThrow(/Not a URL/)
  })

  it('signs for us-east-1 with the given keys and reaches the stand-in', async () => {
    const { standin } = await start()
    const client = createMTurkClient({ endpoint: standin.url, credentials: CREDENTIALS })
    try {
      expect(await client.config.region()).toBe('us-east-1')
      const out = await client.send(new GetAccountBalanceCommand({}))
      expect(out.AvailableBalance).toBe('10000.00')
      expect(out.$metadata.requestId).toBe(standin.state.requests.at(-1)?.requestId)
    } finally {
      client.destroy()
    }
  })
})
