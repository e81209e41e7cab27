import { describe, expect, it } from 'vitest'
import {
  BEGINNING,
  END,
  changedSegments,
  ratingAt,
  segments,
  valueAt,
} from '../../src/main/ratings/timeline'

const row = (id: number, value: number, effectiveFrom: number, recordedAt = id) => ({
  id,
  value,
  effectiveFrom,
  recordedAt,
})

describe('worker timeline', () => {
  it('is unrated before the first commit date and steps at each one', () => {
    const t = segments([row(1, -1, 100), row(2, 2, 200)])
    expect(t).toEqual([
      { start: BEGINNING, until: 100, value: null },
      { start: 100, until: 200, value: -1 },
      { start: 200, until: END, value: 2 },
    ])
    expect(valueAt(t, 99)).toBeNull()
    expect(valueAt(t, 100)).toBe(-1)
    expect(valueAt(t, 200)).toBe(2)
  })

  it('lets the later recorded of two ratings with one commit date win', () => {
    expect(valueAt(segments([row(1, 3, 100, 50), row(2, 1, 100, 40)]), 100)).toBe(3)
    expect(valueAt(segments([row(1, 3, 100, 40), row(2, 1, 100, 50)]), 100)).toBe(1)
    expect(ratingAt([row(1, 3, 100, 40), row(2, 1, 100, 50)], 150)).toBe(1)
  })

  it('merges steps that repeat a value', () => {
    expect(segments([row(1, 2, 100), row(2, 2, 200)])).toHaveLength(2)
  })

  it('splits a change where the old values differ, so each piece is one transition', () => {
    const before = segments([row(1, -1, 100)])
    const after = segments([row(1, -1, 100), row(2, 3, 50), row(3, 3, 100)])
    expect(changedSegments(before, after)).toEqual([
      { start: 50, until: 100, value: 3, from: null },
      { start: 100, until: END, value: 3, from: -1 },
    ])
  })

  it('reports only the pieces whose value moved', () => {
    const before = segments([row(1, -1, 100), row(2, 2, 300)])
    const after = segments([row(1, -1, 100), row(2, 2, 300), row(3, 3, 200)])
    expect(changedSegments(before, after)).toEqual([{ start: 200, until: 300, value: 3, from: -1 }])
    expect(changedSegments(after, after)).toEqual([])
    expect(changedSegments(after, before)).toEqual([{ start: 200, until: 300, value: -1, from: 3 }])
  })
})
