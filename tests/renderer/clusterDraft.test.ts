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

  it('warns live when the 8 largest clusters hold fewer than 85 answers', () => {
    let d = newCluster(emptyDraft, 'sand')
    d = newCluster(d, 'shells')
    expect(selectionOf(d, counts)).toEqual({ topAnswers: 80, passes: false })
    expect(selectionOf(moveTo(d, 'the sands', 0), counts).passes).toBe(true)
  })
})
