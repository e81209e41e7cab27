import { describe, expect, it } from 'vitest'
import { sampleKey, smallestKeys } from '../../src/shared/stats/sampleKey'

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i)

describe('seeded sampling', () => {
  it('is reproducible by seed and independent of the order rows are read in', () => {
    const rows = ids(1000)
    const a = smallestKeys(rows, 42, 50)
    expect(smallestKeys([...rows].reverse(), 42, 50)).toEqual(a)
    expect(new Set(a).size).toBe(50)
    expect(smallestKeys(rows, 43, 50)).not.toEqual(a)
  })

  it('extends a smaller sample of the same seed (drawing more repeats nothing)', () => {
    const rows = ids(5000, 16)
    const small = smallestKeys(rows, 9, 20)
    const large = smallestKeys(rows, 9, 60)
    expect(large.slice(0, 20)).toEqual(small)
    expect(new Set(large).size).toBe(60)
  })

  it('takes everything when asked for more than there is', () => {
    expect(smallestKeys(ids(5), 1, 10).sort((a, b) => a - b)).toEqual(ids(5))
    expect(smallestKeys(ids(5), 1, 0)).toEqual([])
  })

  it('gives keys in [0, 1) for ids beyond 32 bits', () => {
    for (const id of [1, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
      const k = sampleKey(123, id)
      expect(k).toBeGreaterThanOrEqual(0)
      expect(k).toBeLessThan(1)
    }
  })

  it('is uniform: every row is drawn about equally often over many seeds', () => {
    // 4,000 samples of 10 from 100 rows (seeds 0…3999): each row is expected 400 times.
    // Pearson's chi-square with 99 degrees of freedom stays below 148.2 with probability 0.999.
    const rows = ids(100, 1000)
    const counts = new Map<number, number>()
    for (let seed = 0; seed < 4000; seed++)
      for (const id of smallestKeys(rows, seed, 10)) counts.set(id, (counts.get(id) ?? 0) + 1)
    const expected = 400
    const chi2 = rows.reduce((s, id) => s + ((counts.get(id) ?? 0) - expected) ** 2 / expected, 0)
    expect(chi2).toBeLessThan(148.2)
    // Positions within a sample are uniform too: the first pick is any row alike.
    const firsts = new Map<number, number>()
    for (let seed = 0; seed < 10_000; seed++) {
      const first = smallestKeys(ids(10), seed, 1)[0] as number
      firsts.set(first, (firsts.get(first) ?? 0) + 1)
    }
    const chiFirst = ids(10).reduce((s, id) => s + ((firsts.get(id) ?? 0) - 1000) ** 2 / 1000, 0)
    // 9 degrees of freedom: below 27.88 with probability 0.999.
    expect(chiFirst).toBeLessThan(27.88)
  })
})
