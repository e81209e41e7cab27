import { describe, expect, it } from 'vitest'
import {
  clusterCounts,
  emptyDraft,
  fixSpelling,
  forSaving,
  merge,
  moveTo,
  newCluster,
  placeOf,
  selectionOf,
  suggest,
  suggestionReason,
  synonymIndex,
  toggleInvalid,
} from '../../src/renderer/src/features/protoqa/clusterDraft'

describe('a clustering being edited', () => {
  const counts = new Map([
    ['sand', 50],
    ['the sands', 5],
    ['shells', 30],
    ['Shells', 1],
    ['asdf', 2],
  ])

  it('moves, merges, splits and marks answers invalid', () => {
    let d = newCluster(emptyDraft, 'sand')
    d = newCluster(d, 'shells')
    d = moveTo(d, 'the sands', 0)
    d = toggleInvalid(d, 'asdf')
    expect(placeOf(d, 'the sands')).toBe(0)
    expect(placeOf(d, 'asdf')).toBe('invalid')
    expect(clusterCounts(d, counts)).toEqual([55, 30])
    d = merge(d, 1, 0)
    expect(clusterCounts(d, counts)).toEqual([85, 0])
    expect(forSaving(d).clusters).toHaveLength(1)
    d = newCluster(d, 'shells')
    expect(d.clusters.map((c) => c.answers)).toEqual([['sand', 'the sands'], [], ['shells']])
    expect(placeOf(toggleInvalid(d, 'asdf'), 'asdf')).toBeNull()
  })

  it('suggests the cluster of an exact or normalised match', () => {
    let d = newCluster(emptyDraft, 'sand')
    d = newCluster(d, 'shells')
    expect(suggest(d, 'Shells')).toEqual({ cluster: 1, like: 'shells', kind: 'exact' })
    expect(suggest(d, 'the sands')).toEqual({ cluster: 0, like: 'sand', kind: 'normalised' })
    expect(suggest(d, 'asdf')).toBeNull()
    expect(suggest(fixSpelling(d, 'asdf', 'sand'), 'asdf')?.cluster).toBe(0)
  })

  it('suggests the cluster of a WordNet synonym after exact and normalised matches', () => {
    let d = newCluster(emptyDraft, 'sunscreen')
    d = newCluster(d, 'Sunblock')
    d = newCluster(d, 'lotion')
    const synonyms = synonymIndex([
      { a: 'sunscreen', b: 'sunblock', form: false },
      { a: 'sun cream', b: 'lotion', form: false },
    ])
    // An exact match in a later cluster wins over a synonym in an earlier one.
    const exact = suggest(d, 'sunblock', synonyms)
    expect(exact).toEqual({ cluster: 1, like: 'Sunblock', kind: 'exact' })
    const synonym = suggest(d, 'sun cream', synonyms)
    expect(synonym).toEqual({ cluster: 2, like: 'lotion', kind: 'synonym' })
    expect(synonym && suggestionReason(synonym)).toBe('synonym of “lotion”')
    expect(suggest(d, 'sun cream')).toBeNull()
    // A spelling fix is what is compared.
    expect(suggest(fixSpelling(d, 'suncreme', 'sun cream'), 'suncreme', synonyms)?.cluster).toBe(2)
  })

  it('suggests another form of a word (WordNet’s) as a normalised match, not a synonym', () => {
    const d = newCluster(emptyDraft, 'leaves')
    const synonyms = synonymIndex([{ a: 'leaf', b: 'leaves', form: true }])
    const form = suggest(d, 'leaf', synonyms)
    expect(form).toEqual({ cluster: 0, like: 'leaves', kind: 'normalised' })
    expect(form && suggestionReason(form)).toBe('normalised match of “leaves”')
  })

  it('warns live when the 8 largest clusters hold fewer than 85 answers', () => {
    let d = newCluster(emptyDraft, 'sand')
    d = newCluster(d, 'shells')
    expect(selectionOf(d, counts)).toEqual({ topAnswers: 80, passes: false })
    expect(selectionOf(moveTo(d, 'the sands', 0), counts).passes).toBe(true)
  })
})
