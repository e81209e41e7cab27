import { describe, expect, it } from 'vitest'
import {
  dayNumber,
  dayString,
  scaleLinear,
  stepSpans,
  timelineDomain,
} from '../../src/renderer/src/features/workers/timelineMath'

describe('timeline geometry', () => {
  it('converts days both ways', () => {
    expect(dayString(dayNumber('2019-09-30'))).toBe('2019-09-30')
    expect(dayNumber('1970-01-02')).toBe(1)
  })
  it('spans volume days and commit dates, padded by a day', () => {
    const domain = timelineDomain(
      [{ from: '2019-09-10', until: null, value: 2 }],
      [{ day: '2019-09-12', submissions: 1, annotations: 4, byRating: { '2': 4 } }],
    )
    expect(domain).toEqual([dayNumber('2019-09-09'), dayNumber('2019-09-13')])
    expect(timelineDomain([], [])).toBeNull()
  })
  it('clips open-ended steps to the domain', () => {
    const domain: [number, number] = [100, 200]
    const steps = [
      { from: null, until: dayString(150), value: -1 },
      { from: dayString(150), until: null, value: 2 },
      { from: dayString(300), until: null, value: 3 },
    ]
    expect(stepSpans(steps, domain)).toEqual([
      [100, 150, -1],
      [150, 200, 2],
    ])
  })
  it('maps linearly', () => {
    expect(scaleLinear(0, 10, 0, 100)(5)).toBe(50)
    expect(scaleLinear(3, 3, 0, 100)(3)).toBe(0)
  })
})
