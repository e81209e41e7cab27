import { describe, expect, it } from 'vitest'
import {
  formatBytes,
  formatDay,
  formatElapsed,
  formatRate,
  percentDone,
} from '../../src/renderer/src/lib/format'
import {
  back,
  canBack,
  canForward,
  forward,
  pushHistory,
  startHistory,
} from '../../src/renderer/src/lib/history'

describe('history', () => {
  const same = (a: number, b: number) => a === b
  it('goes back and forward, dropping forward on a new state', () => {
    let h = startHistory(1)
    h = pushHistory(h, 2, same)
    h = pushHistory(h, 2, same)
    h = pushHistory(h, 3, same)
    expect(h.past).toEqual([1, 2])
    h = back(h)
    expect(h.present).toBe(2)
    expect(canForward(h)).toBe(true)
    h = forward(h)
    expect(h.present).toBe(3)
    h = back(back(h))
    expect(h.present).toBe(1)
    expect(canBack(h)).toBe(false)
    expect(back(h)).toBe(h)
    h = pushHistory(h, 4, same)
    expect(h.future).toEqual([])
  })
})

describe('format', () => {
  it('formats bytes, rates, days and progress', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(200 * 1024 * 1024)).toBe('200 MB')
    expect(formatRate(12345.6, 'rows')).toBe('12,346 rows/s')
    expect(formatDay(Date.UTC(2019, 8, 30) / 1000)).toBe('2019-09-30')
    expect(formatDay(null)).toBe('')
    expect(percentDone(5, null)).toBeNull()
    expect(percentDone(5, 10)).toBe(50)
  })

  it('says how long a job took, short jobs included', () => {
    expect(formatElapsed(40)).toBe('0.04 s')
    expect(formatElapsed(0)).toBe('0.00 s')
    expect(formatElapsed(400)).toBe('0.4 s')
    expect(formatElapsed(12_400)).toBe('12 s')
    expect(formatElapsed(185_000)).toBe('3 min 05 s')
  })
})
