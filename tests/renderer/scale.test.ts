import { describe, expect, it } from 'vitest'
import { DEFAULT_RATING_SCALE } from '../../src/shared/contract/ratings'
import {
  formatRating,
  keyedLevels,
  levelFor,
  ratingFromKey,
  ratingText,
  textOn,
} from '../../src/renderer/src/features/ratings/scaleMath'

describe('rating scale helpers', () => {
  it('gives whole values their own digit and the rest free digits', () => {
    const keys = keyedLevels(DEFAULT_RATING_SCALE).map((k) => [k.key, k.level.value])
    expect(keys).toEqual([
      ['3', 3],
      ['2', 2],
      ['4', 1.5],
      ['1', 1],
      ['0', 0],
      ['5', -1],
      ['6', -2],
    ])
  })
  it('names and colours ratings', () => {
    expect(ratingText(null)).toBe('unrated')
    expect(ratingText(3, DEFAULT_RATING_SCALE)).toBe('3 · Top')
    expect(formatRating(-1)).toBe('−1')
    expect(levelFor(DEFAULT_RATING_SCALE, 2.5)).toBeNull()
    expect(textOn('#ffffff')).toBe('#1d2125')
    expect(textOn('#1a1a1a')).toBe('#ffffff')
    expect(ratingFromKey('unrated')).toBeNull()
    expect(ratingFromKey('-1')).toBe(-1)
  })
})
