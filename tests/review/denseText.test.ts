import { afterEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { type Trace, forgetTotals, queryAnnotations } from '../../src/main/db/queries/review'
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

  it('reads a rare word from the full-text index', () => {
    db = synthProject(tempDir(), 4000)
    const rare = firstRows({ text: 'bakery' })
    expect(rare.probes).toBe(false)
    expect(rare.page.rows.map((r) => r.id)).toEqual(rare.counted.rows.map((r) => r.id))
    expect(rare.page.rows.length).toBeGreaterThan(0)
  })
})
