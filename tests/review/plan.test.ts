import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { type Db, all, openProject, pluckAll } from '../../src/main/db/connection'
import { countStatement, pagePlan, pageStatement } from '../../src/main/db/queries/review/query'
import { drivingPlan, sentenceShare } from '../../src/main/db/queries/review/plan'
import { resolveFilter } from '../../src/main/db/queries/review/filter'
import { REVIEW_INDEXES } from '../../src/main/db/queries/review/indexes'
import { sortDef } from '../../src/main/db/queries/review/sort'
import { type SqlFragment, sql } from '../../src/main/db/sql'
import type { AnnotationFilter, SortSpec } from '../../src/shared/filter'
import { useTempDir } from '../helpers/tmp'
import { synthProject, write } from './fixture'
import { generateSubmissions } from '../../src/main/synth/glucose'

function plan(db: Db, statement: SqlFragment): string[] {
  return all<{ detail: string }>(db, sql`EXPLAIN QUERY PLAN ${statement}`).map((r) => r.detail)
}

/** Plans must seek an index (or drive from a search), never scan the table or sort a million rows. */
describe('query plans', () => {
  const tempDir = useTempDir()
  let db: Db | undefined
  afterEach(() => db?.close())

  it('migrations 004 to 006 create exactly the indexes the planner knows', () => {
    db = openProject(join(tempDir(), 'p.winnow'), { create: true })
    for (const [name, columns] of Object.entries(REVIEW_INDEXES)) {
      const info = pluckAll<string>(
        db,
        sql`SELECT name FROM pragma_index_info(${name}) ORDER BY seqno`,
      )
      expect(info, name).toEqual(columns)
    }
    // …and the flagged one is partial.
    expect(
      pluckAll<string>(db, sql`SELECT sql FROM sqlite_schema WHERE name = 'ann_flagged'`)[0],
    ).toMatch(/WHERE flags > 0$/)
  })

  it('keeps the sentence index in step with imported sentences', () => {
    db = synthProject(tempDir(), 50)
    const sentences = pluckAll<number>(db, sql`SELECT count(*) FROM sentences`)[0]
    const indexed = pluckAll<number>(db, sql`SELECT count(*) FROM sentence_search`)[0]
    expect(indexed).toBe(sentences)
    write(db, generateSubmissions({ count: 20, seed: 99 }))
    expect(pluckAll<number>(db, sql`SELECT count(*) FROM sentence_search`)[0]).toBe(
      pluckAll<number>(db, sql`SELECT count(*) FROM sentences`)[0],
    )
  })

  it("estimates a sentence filter's share from a count of sentences that follows every write", () => {
    const dir = tempDir()
    db = synthProject(dir, 50)
    const share = (d: Db, text: string) => sentenceShare(d, resolveFilter(d, { sentence: text }))
    const recount = (d: Db, text: string) => {
      const [matched, all] = pluckAll<number>(
        d,
        sql`SELECT count(*) FROM sentences WHERE text LIKE ${`%${text}%`}
            UNION ALL SELECT count(*) FROM sentences`,
      )
      return (matched ?? 0) / (all ?? 1)
    }
    const word = 'the'
    const before = share(db, word)
    expect(before).toBeGreaterThan(0)
    expect(before).toBeCloseTo(recount(db, word), 12)
    // Written here, then by another connection on the same file: the count is read again.
    write(db, generateSubmissions({ count: 400, seed: 11 }))
    expect(recount(db, word)).not.toBeCloseTo(before, 12)
    expect(share(db, word)).toBeCloseTo(recount(db, word), 12)
    const between = share(db, word)
    const other = openProject(join(dir, 'synth.winnow'))
    try {
      write(other, generateSubmissions({ count: 400, seed: 12 }))
    } finally {
      other.close()
    }
    expect(recount(db, word)).not.toBeCloseTo(between, 12)
    expect(share(db, word)).toBeCloseTo(recount(db, word), 12)
  })

  it('counts every filter shape through an index or a search, without a table scan', () => {
    db = synthProject(tempDir(), 200)
    const worker = pluckAll<string>(db, sql`SELECT external_id FROM workers LIMIT 2`)
    const filters: AnnotationFilter[] = [
      { dimensions: [1, 6] },
      { ratings: [2] },
      { ratings: [2, 'unrated'] },
      { from: '2019-09-10', to: '2019-09-20' },
      { workers: worker },
      { workers: worker, ratings: [3] },
      { ratings: [2], from: '2019-09-10' },
      { dimensions: [2], from: '2019-09-10', to: '2019-09-20' },
      { flagged: true },
      { text: 'the cat' },
      { sentence: 'went' },
      { sentence: 'went', dimensions: [1] },
      { submissionIds: [3, 5], dimensions: [1] },
      { annotationIds: [49, 50] },
    ]
    for (const filter of filters) {
      const statement = countStatement(db, resolveFilter(db, filter))
      if (!statement) throw new Error('no statement')
      const details = plan(db, statement)
      const label = `${JSON.stringify(filter)}: ${details.join(' | ')}`
      if (details.some((d) => /count/.test(d))) {
        // Filters on the summary's columns read it and its log, never the annotations; with
        // workers, the worker summary is sought by its key.
        expect(
          details.some((d) => /\b(annotations|a)\b(?!_)/.test(d.replace(/annotation_\w+/g, ''))),
          label,
        ).toBe(false)
        if (filter.workers)
          expect(
            details.some((d) => /SEARCH annotation_counts/.test(d)),
            label,
          ).toBe(true)
        continue
      }
      // A scan is fine only of the small partial index of flagged rows.
      expect(
        details.some((d) => /^SCAN a\b/.test(d) && !d.includes('COVERING INDEX ann_flagged')),
        label,
      ).toBe(false)
      expect(
        details.some((d) => /USING INDEX/.test(d)),
        label,
      ).toBe(false)
      expect(
        details.some((d) => /COVERING INDEX ann_|VIRTUAL TABLE/.test(d)),
        label,
      ).toBe(true)
    }
  })

  it('walks the sort index for a large result instead of sorting it', () => {
    db = synthProject(tempDir(), 200)
    const cases: Array<[AnnotationFilter, SortSpec]> = [
      [{}, { column: 'submittedAt', direction: 'desc' }],
      [{ dimensions: [1, 2] }, { column: 'dimension', direction: 'asc' }],
      [{ ratings: [2, 3] }, { column: 'workerId', direction: 'asc' }],
      [{ ratings: [2] }, { column: 'rating', direction: 'desc' }],
      [{}, { column: 'id', direction: 'asc' }],
    ]
    for (const [filter, sort] of cases) {
      const c = resolveFilter(db, filter)
      const def = sortDef(sort.column)
      const statement = pageStatement(
        pagePlan(db, c, def, 10_000_000),
        def,
        sort.direction,
        null,
        100,
        0,
      )
      const details = plan(db, statement)
      const label = `${JSON.stringify([filter, sort])}: ${details.join(' | ')}`
      expect(
        details.some((d) => d.includes('TEMP B-TREE')),
        label,
      ).toBe(false)
    }
  })

  it('walks some ratings and the unrated in rating order by seeking each, not the whole index', () => {
    db = synthProject(tempDir(), 200)
    const filter: AnnotationFilter = { ratings: [0, -1, 'unrated'], dimensions: [1, 8, 9] }
    const sort: SortSpec = { column: 'rating', direction: 'desc' }
    const c = resolveFilter(db, filter)
    const def = sortDef(sort.column)
    const statement = pageStatement(pagePlan(db, c, def, 10_000_000), def, 'desc', null, 100, 0)
    const details = plan(db, statement)
    const label = details.join(' | ')
    expect(
      details.some((d) => /^SCAN a\b/.test(d)),
      label,
    ).toBe(false)
    expect(
      details.some((d) => d.includes('TEMP B-TREE')),
      label,
    ).toBe(false)
    expect(
      details.filter((d) => /SEARCH a USING COVERING INDEX ann_rating \(rating/.test(d)),
      label,
    ).toHaveLength(2)
    // The walk's rows are those of the whole result sorted.
    const ids = (p: SqlFragment) => all<{ id: number }>(db as Db, p).map((r) => r.id)
    const sorted = pageStatement(pagePlan(db, c, def, 10), def, 'desc', null, 100, 0)
    expect(ids(statement)).toEqual(ids(sorted))
    expect(ids(statement).length).toBeGreaterThan(0)
  })
  it('passes over a text hit of another dimension by its id, before joining it to its annotation', () => {
    db = synthProject(tempDir(), 200)
    const filter: AnnotationFilter = { text: 'enables', dimensions: [2, 5] }
    const c = resolveFilter(db, filter)
    const driving = drivingPlan(db, c)
    expect(driving.driver).toBe('fts')
    // The id's test sits in the seek, beside the MATCH, where the join has not happened yet.
    expect((driving.branches[0] as SqlFragment).text).toMatch(
      /MATCH \?.*AND \(\? >> \(annotation_search\.rowid & 15\)\) & 1 = 1/s,
    )
    const ids = (p: SqlFragment) => all<{ id: number }>(db as Db, p).map((r) => r.id)
    const found = ids(
      sql`SELECT a.id AS id FROM ${driving.from} WHERE ${driving.branches[0] as SqlFragment} ORDER BY a.id`,
    )
    const plain =
      ids(sql`SELECT a.id AS id FROM annotations a JOIN annotation_texts t ON t.annotation_id = a.id
      WHERE a.dimension IN (2, 5) AND a.id IN (SELECT rowid FROM annotation_search WHERE annotation_search MATCH '"enables"')
      ORDER BY a.id`)
    expect(found).toEqual(plain)
    expect(found.length).toBeGreaterThan(0)
  })
})
