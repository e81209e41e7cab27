import { afterEach, describe, expect, it } from 'vitest'
import { type Db, pluck } from '../../src/main/db/connection'
import { sql } from '../../src/main/db/sql'
import {
  type Trace,
  forgetTotals,
  queryAnnotations,
  reviewTuning,
} from '../../src/main/db/queries/review/query'
import type { AnnotationFilter, SortSpec } from '../../src/shared/filter'
import { useTempDir } from '../helpers/tmp'
import { synthProject } from './fixture'

/**
 * The first rows of a text filter sorted by an indexed column, before its total is known: a word
 * in most rows walks the sort's index and probes each row's text; a rare word is read from the
 * full-text index. Either way the rows are those of the counted path.
 */
describe('first rows of a text filter, by the word’s share', () => {
  const tempDir = useTempDir()
  let db: Db | null = null
  afterEach(() => db?.close())

  const byDate: SortSpec = { column: 'submittedAt', direction: 'desc' }

  function firstRows(filter: AnnotationFilter) {
    const trace: Trace = []
    forgetTotals(db as Db)
    const page = queryAnnotations(
      db as Db,
      { filter, sort: byDate, limit: 10, countLater: true },
      trace,
    )
    forgetTotals(db as Db)
    const counted = queryAnnotations(db as Db, { filter, sort: byDate, limit: 10 })
    return { page, counted, probes: trace.some((s) => s.text.includes('AND rowid = a.id')) }
  }

  it('walks the date index for a connector in most statements, with the counted path’s rows', () => {
    db = synthProject(tempDir(), 4000)
    const dense = firstRows({ text: 'enables', dimensions: [1] })
    expect(dense.probes).toBe(true)
    expect(dense.page.counting).toBe(true)
    expect(dense.page.rows.map((r) => r.id)).toEqual(dense.counted.rows.map((r) => r.id))
    expect(dense.page.rows).toHaveLength(10)
  })

  it('walks the rows in order for a word in most sentences, with the counted path’s rows', () => {
    db = synthProject(tempDir(), 4000)
    reviewTuning.walkAbove = 1000
    try {
      const filter: AnnotationFilter = { sentence: 'the' }
      const byId: SortSpec = { column: 'id', direction: 'asc' }
      const trace: Trace = []
      forgetTotals(db)
      const page = queryAnnotations(db, { filter, sort: byId, limit: 10, countLater: true }, trace)
      forgetTotals(db)
      const counted = queryAnnotations(db, { filter, sort: byId, limit: 10 })
      // Not every matching sentence's annotations read and sorted: the rows walked by id.
      expect(
        trace.some((st) => st.text.includes('sentence_search MATCH') && /JOIN/.test(st.text)),
      ).toBe(false)
      expect(page.rows.map((r) => r.id)).toEqual(counted.rows.map((r) => r.id))
      expect(page.rows).toHaveLength(10)
    } finally {
      reviewTuning.walkAbove = 50_000
    }
  })

  it('reads a connector within one story from the story, probing each row’s text', () => {
    db = synthProject(tempDir(), 4000)
    const story = pluck<string>(
      db,
      sql`SELECT st.external_id FROM stories st JOIN annotations a ON a.story_id = st.id
          GROUP BY st.id ORDER BY count(*) DESC LIMIT 1`,
    )
    const filter: AnnotationFilter = { text: 'enables', stories: [story ?? ''] }
    const trace: Trace = []
    forgetTotals(db)
    const page = queryAnnotations(db, { filter, sort: byDate, limit: 10, countLater: true }, trace)
    forgetTotals(db)
    const counted = queryAnnotations(db, { filter, sort: byDate, limit: 10 })
    // Not a walk of the date index over the whole project, nor every hit of the word read.
    const pageRead = trace.find((st) => st.text.includes('FROM annotations a INDEXED BY'))
    expect(pageRead?.text).toContain('INDEXED BY ann_story')
    expect(pageRead?.text).toContain('AND rowid = a.id')
    expect(page.rows.map((r) => r.id)).toEqual(counted.rows.map((r) => r.id))
    expect(page.rows.length).toBeGreaterThan(0)
  })

  it('reads a rare word from the full-text index', () => {
    db = synthProject(tempDir(), 4000)
    const rare = firstRows({ text: 'bakery' })
    expect(rare.probes).toBe(false)
    expect(rare.page.rows.map((r) => r.id)).toEqual(rare.counted.rows.map((r) => r.id))
    expect(rare.page.rows.length).toBeGreaterThan(0)
  })
})
