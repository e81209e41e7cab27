import { describe, expect, it } from 'vitest'
import {
  annotationFilterSchema,
  describeFilter,
  filterChips,
  filterKey,
  formatDay,
  isDay,
  isEmptyFilter,
  normalizeFilter,
  removeChip,
} from '../../src/shared/filter'
import {
  ftsQuery,
  highlightRanges,
  highlightTerms,
  searchPhrases,
} from '../../src/shared/textSearch'
import { likeContains } from '../../src/main/db/queries/review/filter'

describe('filter vocabulary', () => {
  it('validates days, ranges and unknown fields', () => {
    expect(isDay('2019-09-30')).toBe(true)
    expect(isDay('2019-02-29')).toBe(false)
    expect(isDay('2019-9-30')).toBe(false)
    expect(formatDay(Date.UTC(2020, 0, 15, 13) / 1000)).toBe('2020-01-15')
    expect(annotationFilterSchema.safeParse({ from: '2019-09-02', to: '2019-09-01' }).success).toBe(
      false,
    )
    expect(annotationFilterSchema.safeParse({ from: '2019-09-01', to: '2019-09-01' }).success).toBe(
      true,
    )
    expect(annotationFilterSchema.safeParse({ dimensions: [0] }).success).toBe(false)
    expect(annotationFilterSchema.safeParse({ ratings: ['bad'] }).success).toBe(false)
    expect(annotationFilterSchema.safeParse({ ratings: [1.5, 'unrated'] }).success).toBe(true)
    expect(annotationFilterSchema.safeParse({ worker: ['x'] }).success).toBe(false)
  })

  it('normalizes so the same selection compares equal', () => {
    const a = normalizeFilter({
      workers: ['B', 'A', 'B'],
      dimensions: [6, 1],
      text: '  cat ',
      sentence: '',
      ratings: ['unrated', 3, 2],
      flagged: false,
      stories: [],
    })
    expect(a).toEqual({
      workers: ['A', 'B'],
      dimensions: [1, 6],
      text: 'cat',
      ratings: [2, 3, 'unrated'],
    })
    expect(filterKey({ dimensions: [1, 6], workers: ['A', 'B'] })).toBe(
      filterKey({ workers: ['B', 'A'], dimensions: [6, 1, 1] }),
    )
    expect(isEmptyFilter({ workers: [], text: ' ' })).toBe(true)
    expect(isEmptyFilter({ flagged: true })).toBe(false)
  })

  it('shows a filter as removable chips and one line', () => {
    const filter = {
      workers: ['W1', 'W2'],
      dimensions: [2],
      from: '2019-09-01',
      ratings: [3, -2, 'unrated' as const],
      flagged: true,
    }
    const chips = filterChips(filter)
    expect(chips.map((c) => c.label)).toEqual([
      'worker W1',
      'worker W2',
      'dimension 2',
      'from 2019-09-01',
      'rating −2',
      'rating 3',
      'unrated',
      'flagged',
    ])
    expect(removeChip(filter, chips[0]!)).toEqual({
      workers: ['W2'],
      dimensions: [2],
      from: '2019-09-01',
      ratings: [-2, 3, 'unrated'],
      flagged: true,
    })
    expect(removeChip(filter, chips[2]!)).not.toHaveProperty('dimensions')
    expect(removeChip(filter, chips[7]!)).not.toHaveProperty('flagged')
    expect(filterChips({ flagKinds: ['NlUnparsed'] })[0]?.label).toBe('flag: NL does not parse')
    expect(describeFilter({})).toBe('all annotations')
    expect(describeFilter({ text: 'a "b"', annotationIds: [1, 2] })).toBe(
      'text “a "b"” · 2 selected annotations',
    )
    expect(filterChips({ stories: ['00000000-0000-4000-8000-000000000001'] })[0]?.label).toBe(
      'story 00000000…',
    )
  })
})

describe('search text', () => {
  it('splits words like FTS5 and keeps quoted runs as phrases', () => {
    expect(searchPhrases('Feel(s) "the  CAT" dog')).toEqual([
      ['feel'],
      ['s'],
      ['the', 'cat'],
      ['dog'],
    ])
    expect(searchPhrases('"unbalanced quote')).toEqual([['unbalanced', 'quote']])
    expect(searchPhrases('Someone_A')).toEqual([['someone'], ['a']])
    expect(searchPhrases('Café naïve')).toEqual([['cafe'], ['naive']])
  })

  it('builds a MATCH expression of quoted phrases only', () => {
    expect(ftsQuery('cat AND dog')).toBe('"cat" "and" "dog"')
    expect(ftsQuery('"went to" the*')).toBe('"went to" "the"')
    expect(ftsQuery('NEAR(a b) -c ^d col:e')).toBe('"near" "a" "b" "c" "d" "col" "e"')
    expect(ftsQuery('((( ""')).toBeNull()
    for (const text of ['"', "'", '*', 'a"b', '\\"'])
      expect(ftsQuery(text) ?? '').not.toMatch(/[^"a-z ]/)
  })

  it('finds the ranges to highlight as whole words, case and accents folded', () => {
    const text = 'Tom fed the CAT; the catalog café'
    expect(highlightTerms('cat "the cat"')).toEqual(['cat', 'the'])
    expect(highlightRanges(text, ['cat', 'cafe'])).toEqual([
      [12, 15],
      [29, 33],
    ])
    expect(highlightRanges(text, [])).toEqual([])
  })

  it('escapes LIKE metacharacters', () => {
    expect(likeContains('100%_a\\b')).toBe('%100\\%\\_a\\\\b%')
  })
})
