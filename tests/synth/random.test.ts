import { describe, expect, it } from 'vitest'
import { createRandom, Distribution, hashString, longTailShares } from '../../src/main/synth/random'

describe('createRandom', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const draw = (seed: number | string): number[] => {
      const r = createRandom(seed)
      return Array.from({ length: 20 }, () => r.next())
    }
    expect(draw(42)).toEqual(draw(42))
    expect(draw('glucose')).toEqual(draw('glucose'))
    expect(draw(42)).not.toEqual(draw(43))
    expect(draw(42).every((x) => x >= 0 && x < 1)).toBe(true)
  })

  it('forks into independent, reproducible streams', () => {
    const a = createRandom(7).fork('workers')
    const b = createRandom(7).fork('workers')
    const c = createRandom(7).fork('stories')
    const seq = (r: typeof a): number[] => Array.from({ length: 5 }, () => r.int(1000))
    const first = seq(a)
    expect(first).toEqual(seq(b))
    expect(first).not.toEqual(seq(c))
  })

  it('draws integers, picks and weighted choices in range and in proportion', () => {
    const r = createRandom(1)
    const counts = [0, 0, 0]
    for (let i = 0; i < 30000; i++) counts[r.weighted([1, 2, 7])]!++
    expect(counts[0]! / 30000).toBeCloseTo(0.1, 1)
    expect(counts[2]! / 30000).toBeCloseTo(0.7, 1)
    for (let i = 0; i < 1000; i++) {
      const n = r.between(3, 5)
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true)
      expect(['x', 'y']).toContain(r.pick(['x', 'y']))
    }
    expect(() => r.pick([])).toThrow(RangeError)
  })
})

describe('Distribution and longTailShares', () => {
  it('keeps the published head and a decreasing tail that sums to one', () => {
    const shares = longTailShares(373, [0.128, 0.0919, 0.0461], 1.3, 8)
    expect(shares).toHaveLength(373)
    expect(shares.slice(0, 3)).toEqual([0.128, 0.0919, 0.0461])
    expect(shares.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 9)
    expect(shares[3]!).toBeLessThan(0.0461)
    for (let i = 4; i < shares.length; i++) expect(shares[i]!).toBeLessThanOrEqual(shares[i - 1]!)
  })

  it('draws indices in proportion to their weights', () => {
    const d = new Distribution([5, 0, 3, 2])
    const r = createRandom(3)
    const counts = [0, 0, 0, 0]
    for (let i = 0; i < 20000; i++) counts[d.draw(r)]!++
    expect(counts[1]).toBe(0)
    expect(counts[0]! / 20000).toBeCloseTo(0.5, 1)
    expect(counts[3]! / 20000).toBeCloseTo(0.2, 1)
  })

  it('hashes strings stably', () => {
    expect(hashString('abc')).toBe(hashString('abc'))
    expect(hashString('abc')).not.toBe(hashString('abd'))
  })
})
