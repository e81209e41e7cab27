import { describe, expect, it } from 'vitest'
import { groupProblems } from '../../src/shared/crowdaq/conditions'
import type { Group } from '../../src/shared/crowdaq/spec'
import { UNSET_SPAN, spanLabel, spanOf } from '../../src/shared/crowdaq/spans'

const text = 'They paid 2,500 dollars.'

describe('span values', () => {
  it('builds a span from offsets in either order, end exclusive, with its surface', () => {
    expect(spanOf(text, 10, 15)).toEqual({ start: 10, end: 15, surface: '2,500' })
    // A selection made backwards gives its offsets the other way round.
    expect(spanOf(text, 15, 10)).toEqual({ start: 10, end: 15, surface: '2,500' })
    expect(spanLabel({ start: 10, end: 15, surface: '2,500' })).toBe('“2,500” (10–15)')
  })

  it('refuses an empty span and one reaching outside the text', () => {
    expect(spanOf(text, 4, 4)).toBeNull()
    expect(spanOf(text, -1, 3)).toBeNull()
    expect(spanOf(text, 20, text.length + 1)).toBeNull()
    expect(spanOf(text, 0, text.length)?.surface).toBe(text)
  })

  it('checks regex constraints on the surface and min/max of a repeated span collector', () => {
    const group: Group = {
      id: 'g',
      annotations: [
        {
          type: 'span-from-text',
          id: 'amount',
          from_context: 'c',
          constraints: [{ type: 'regex', regex: '^[0-9,]+$', description: 'a number' }],
        },
        { type: 'span-from-text', id: 'who', from_context: 'c', repeated: true, min: 2, max: 2 },
      ],
    }
    const they = spanOf(text, 0, 4)
    const amount = spanOf(text, 10, 15)
    expect(groupProblems(group, { amount: UNSET_SPAN })).toEqual({
      amount: ['required'],
      who: ['required'],
    })
    expect(groupProblems(group, { amount: they, who: [they, amount] })).toEqual({
      amount: ['a number'],
    })
    expect(groupProblems(group, { amount, who: [they] })).toEqual({
      who: ['at least 2 needed, 1 given'],
    })
  })
})
