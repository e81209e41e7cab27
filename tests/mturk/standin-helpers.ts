/** A stand-in on a random port and real SDK clients pointed at it, closed after each test. */
import type { MTurkClient } from '@aws-sdk/client-mturk'
import { afterEach } from 'vitest'
import type { MTurkContext } from '../../src/main/mturk/call'
import { createMTurkClient } from '../../src/main/mturk/client'
import { createRateLimiter } from '../../src/main/mturk/limiter'
import { type Standin, type StandinOptions, createStandin } from '../../standin/index'

/** Fake keys with recognisable text, so tests can search everything for them. */
export const CREDENTIALS = {
  accessKeyId: 'AKIDTESTSECRETKEYID',
  secretAccessKey: 'tEsTsEcReT/never-on-the-wire+0123456789',
}

export interface Harness {
  standin: Standin
  client: MTurkClient
  ctx: MTurkContext
  /** Stand-in log lines (what `--demo` prints). */
  log: string[]
}

export function useStandin(): (options?: StandinOptions) => Promise<Harness> {
  const open: { standin: Standin; client: MTurkClient }[] = []
  afterEach(async () => {
    for (const { standin, client } of open.splice(0)) {
      client.destroy()
      await standin.close()
    }
  })
  return async (options = {}) => {
    const log: string[] = []
    const standin = await createStandin({ ...options, log: (line) => log.push(line) })
    const client = createMTurkClient({
      endpoint: standin.url,
      credentials: CREDENTIALS,
      requestTimeoutMs: 5_000,
    })
    open.push({ standin, client })
    const ctx: MTurkContext = {
      client,
      limiter: createRateLimiter('unlimited'),
      backoff: { retries: 6, baseMs: 2, capMs: 20 },
    }
    return { standin, client, ctx, log }
  }
}

/** A clock tests can move: epoch ms. */
export function movableClock(start = Date.UTC(2026, 0, 15)): {
  now: () => number
  advance: (ms: number) => void
} {
  let t = start
  return { now: () => t, advance: (ms) => (t += ms) }
}
