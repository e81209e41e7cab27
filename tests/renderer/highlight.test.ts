import { describe, expect, it } from 'vitest'
import {
  fullTextTerms,
  highlightSearch,
  highlightSubstring,
  segmentsFromRanges,
} from '../../src/renderer/src/lib/highlight'

const marked = (segments: { text: string; match: boolean }[]) =>
  segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join('')

describe('highlightSearch', () => {
  it('marks whole tokens case- and accent-insensitively', () => {
    const terms = fullTextTerms('cat café')
    expect(marked(highlightSearch('The Cat sat in the Cafe with cats', terms))).toBe(
      'The [Cat] sat in the [Cafe] with cats',
    )
  })
  it('keeps markup-like text as text and loses nothing', () => {
    const text = 'Someone_A sees <img src=x onerror=alert(1)>'
    const segments = highlightSearch(text, fullTextTerms('img'))
    expect(segments.map((s) => s.text).join('')).toBe(text)
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(['img'])
  })
  it('returns the text whole when there is nothing to mark', () => {
    expect(highlightSearch('abc', [])).toEqual([{ text: 'abc', match: false }])
    expect(highlightSearch('', fullTextTerms('a'))).toEqual([{ text: '', match: false }])
  })
})

describe('segmentsFromRanges', () => {
  it('skips overlapping and empty ranges', () => {
    expect(
      marked(
        segmentsFromRanges('abcdef', [
          [0, 2],
          [1, 3],
          [3, 3],
          [4, 6],
        ]),
      ),
    ).toBe('[ab]cd[ef]')
  })
})

describe('highlightSubstring', () => {
  it('marks every occurrence, regex characters included', () => {
    expect(marked(highlightSubstring('a.b a.b', 'A.B'))).toBe('[a.b] [a.b]')
    expect(marked(highlightSubstring('(x) (y)', '('))).toBe('[(]x) [(]y)')
  })
})
