import { countAtMost } from '../../shared/lists'

/** A small seeded PRNG (sfc32) and the draws synthetic data needs. Same seed, same sequence. */

export interface Random {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [0, n). */
  int(n: number): number
  /** Integer in [lo, hi]. */
  between(lo: number, hi: number): number
  chance(p: number): boolean
  pick<T>(items: readonly T[]): T
  /** Index drawn in proportion to `weights`. */
  weighted(weights: readonly number[]): number
  /** Standard normal (Box–Muller). */
  normal(): number
  /** A new generator whose sequence depends only on this one's seed and `label`. */
  fork(label: string): Random
  readonly seed: number
}

export function createRandom(seed: number | string): Random {
  const s = typeof seed === 'string' ? hashString(seed) : seed >>> 0
  return sfc32(s)
}

function sfc32(seed: number): Random {
  let a = 0x9e3779b9
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = seed >>> 0
  const step = (): number => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    const t = (a + b + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  // Mix the seed in before the first draw.
  for (let i = 0; i < 15; i++) step()
  const r: Random = {
    seed,
    next: step,
    int: (n) => Math.floor(step() * n),
    between: (lo, hi) => lo + Math.floor(step() * (hi - lo + 1)),
    chance: (p) => step() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list')
      return items[Math.floor(step() * items.length)] as T
    },
    weighted: (weights) => {
      let total = 0
      for (const w of weights) total += w
      let x = step() * total
      for (let i = 0; i < weights.length; i++) {
        x -= weights[i] ?? 0
        if (x < 0) return i
      }
      return weights.length - 1
    },
    normal: () => {
      const u = 1 - step()
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * step())
    },
    fork: (label) => sfc32(hashString(`${seed}:${label}`)),
  }
  return r
}

/** 32-bit FNV-1a with a final avalanche; for seeds and stable ids, not security. */
export function hashString(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * Picks indices from a fixed discrete distribution in O(log n) (cumulative table + binary
 * search): for drawing among hundreds of workers many thousands of times.
 */
export class Distribution {
  private readonly cumulative: Float64Array

  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length)
    let total = 0
    weights.forEach((w, i) => {
      total += w
      this.cumulative[i] = total
    })
  }

  draw(r: Random): number {
    const c = this.cumulative
    const x = r.next() * (c[c.length - 1] ?? 0)
    // The first weight whose running total passes x (the last, should rounding leave none).
    return Math.max(0, Math.min(countAtMost(c, x), c.length - 1))
  }
}

/**
 * Shares of a long-tailed population: the given head shares, then a Zipf-like tail
 * (∝ 1/(rank + offset)^exponent) holding what is left.
 */
export function longTailShares(
  count: number,
  head: readonly number[],
  exponent = 1.1,
  offset = 3,
): number[] {
  const shares = head.slice(0, count)
  const rest = count - shares.length
  if (rest <= 0) return normalise(shares)
  const left = Math.max(0, 1 - shares.reduce((s, x) => s + x, 0))
  const tail = Array.from({ length: rest }, (_, i) => 1 / Math.pow(i + 1 + offset, exponent))
  const sum = tail.reduce((s, x) => s + x, 0)
  return [...shares, ...tail.map((t) => (t / sum) * left)]
}

function normalise(xs: readonly number[]): number[] {
  const sum = xs.reduce((s, x) => s + x, 0)
  return xs.map((x) => x / sum)
}
