import { describe, expect, it } from 'vitest'
import { margin, wilson } from '../../src/shared/stats/wilson'

describe('the Wilson score interval (z = 1.96)', () => {
  // Published values (Newcombe 1998, Table I) and the GLUCOSE audits' figures.
  it.each([
    [8, 10, 0.4902, 0.9433],
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
    [40, 50, 0.6696, 0.8876],
    [92, 100, 0.85, 0.9589],
    [1, 1, 0.2065, 1],
  ])('%i of %i is %f to %f', (k, n, low, high) => {
    const p = wilson(k, n)
    expect(p.proportion).toBeCloseTo(k / n, 10)
    expect(p.low).toBeCloseTo(low, 4)
    expect(p.high).toBeCloseTo(high, 4)
  })

  it('is exactly 0 at no successes and exactly 1 at all', () => {
    expect(wilson(0, 7).low).toBe(0)
    expect(wilson(7, 7).high).toBe(1)
  })

  it('has no figures for nothing judged', () => {
    expect(wilson(0, 0)).toEqual({ proportion: null, low: null, high: null })
    expect(margin(wilson(0, 0))).toBeNull()
  })

  it('narrows as the sample grows', () => {
    expect(margin(wilson(80, 100)) ?? 1).toBeLessThan(margin(wilson(8, 10)) ?? 0)
  })

  it('refuses counts that are not counts', () => {
    expect(() => wilson(3, 2)).toThrow(RangeError)
    expect(() => wilson(-1, 2)).toThrow(RangeError)
    expect(() => wilson(1.5, 2)).toThrow(RangeError)
  })
})
