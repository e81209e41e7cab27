import { describe, expect, it } from 'vitest'
import {
  TYPING_WINDOW_MS,
  changeFilter,
  filterBack,
  filterForward,
  initialFilterHistory,
} from '../../src/renderer/src/features/grid/filterHistory'

describe('filter history', () => {
  it('records each discrete change and walks back and forward', () => {
    let s = initialFilterHistory()
    s = changeFilter(s, { workers: ['A1'] })
    s = changeFilter(s, { workers: ['A1'], dimensions: [2] })
    s = filterBack(s)
    expect(s.history.present).toEqual({ workers: ['A1'] })
    s = filterBack(s)
    expect(s.history.present).toEqual({})
    s = filterForward(filterForward(s))
    expect(s.history.present).toEqual({ dimensions: [2], workers: ['A1'] })
  })
  it('coalesces typing in one field, but not across the window or fields', () => {
    let s = initialFilterHistory()
    s = changeFilter(s, { text: 'c' }, { typing: 'text', now: 0 })
    s = changeFilter(s, { text: 'ca' }, { typing: 'text', now: 100 })
    s = changeFilter(s, { text: 'cat' }, { typing: 'text', now: 200 })
    expect(s.history.past).toHaveLength(1)
    s = changeFilter(s, { text: 'cat', sentence: 'x' }, { typing: 'sentence', now: 300 })
    expect(s.history.past).toHaveLength(2)
    s = changeFilter(
      s,
      { text: 'cat', sentence: 'xy' },
      { typing: 'sentence', now: 300 + TYPING_WINDOW_MS },
    )
    expect(s.history.past).toHaveLength(3)
  })
  it('ignores changes that select the same rows by the same words', () => {
    const s = changeFilter(initialFilterHistory(), { workers: [], text: '  ' })
    expect(s.history.past).toHaveLength(0)
  })
})
