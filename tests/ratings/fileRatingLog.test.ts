import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { hasNoRatings } from '../../src/main/db/queries/ratings/import'
import { FileRatingLog, LOG_PAGE } from '../../src/main/db/fileRatingLog'
import { useTempDir } from '../helpers/tmp'
import { DAY, day, expectConsistent, importSubmissions, newProject } from './helpers'

const SCALE = [3, 2, 1.5, 1, 0, -1, -2]
const START = day('2019-09-01')

/** Everything the reconstruction writes, without the recording times (each run has its own). */
function ratingState(db: Db): unknown {
  const rows = (query: string) => db.prepare(query).all()
  return {
    workerRatings: rows(
      'SELECT id, worker_id, value, effective_from, author, note, change_set_id FROM worker_ratings ORDER BY id',
    ),
    itemRatings: rows(
      'SELECT id, annotation_id, value, author, note, change_set_id FROM item_ratings ORDER BY id',
    ),
    annotations: rows('SELECT id, rating, rating_source FROM annotations ORDER BY id'),
    effects: rows('SELECT * FROM rating_effects ORDER BY change_set_id'),
    pending: rows('SELECT * FROM rating_pending'),
    triggers: rows("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name"),
  }
}

describe('timelines from the log of a first import', () => {
  const tempDir = useTempDir()

  it('keeps its rows on disk and gives them back in pages, in the order written', () => {
    const log = new FileRatingLog(LOG_PAGE)
    const n = 2 * LOG_PAGE + 10
    try {
      for (let i = 0; i < n; i++) log.add(i + 1, 2, i % 7 === 0 ? null : i % 50, START + i, i % 3)
      log.add(n + 1, 0, 1, START, 1)
      // A row that added no dimension is not logged.
      expect(log.length).toBe(n)
      const pages = [...log.pages()]
      expect(pages.map((p) => p.length)).toEqual([LOG_PAGE, LOG_PAGE, 10])
      const rows = pages.flat()
      expect(rows.map((r) => r.submissionId)).toEqual(Array.from({ length: n }, (_, i) => i + 1))
      expect(rows[LOG_PAGE]).toEqual({
        submissionId: LOG_PAGE + 1,
        dimensions: 2,
        workerId: LOG_PAGE % 50,
        submittedAt: START + LOG_PAGE,
        value: LOG_PAGE % 3,
      })
      expect(rows[7 * 9363]?.workerId).toBeNull()
      // Its distinct groups come sorted by worker, time and value, the rows without a worker left out.
      const groups = [...log.groups()]
      expect(groups).toHaveLength(n - Math.ceil(n / 7))
      expect(groups.slice(0, 2)).toEqual([
        { workerId: 0, submittedAt: START + 50, value: 50 % 3 },
        { workerId: 0, submittedAt: START + 100, value: 100 % 3 },
      ])
    } finally {
      log.close()
    }
    expect(() => log.add(1, 2, 1, START, 1)).toThrow()
  })

  it('knows a project without ratings', () => {
    const db = newProject(tempDir())
    expect(hasNoRatings(db)).toBe(true)
    importSubmissions(db, [{ worker: 'W', at: START, fileRating: null }])
    expect(hasNoRatings(db)).toBe(false)
    db.close()
  })

  it('writes what reading the rows back writes (property)', () => {
    const spec = fc.record({
      worker: fc.option(fc.constantFrom('A', 'B', 'C', 'D'), { nil: null, freq: 8 }),
      at: fc.option(
        fc.integer({ min: 0, max: 12 }).map((d) => START + d * DAY),
        { nil: null, freq: 10 },
      ),
      fileRating: fc.option(fc.constantFrom(...SCALE), { nil: null, freq: 5 }),
      dimensions: fc.integer({ min: 1, max: 4 }),
      // Repeated keys merge rows into one submission, as per-dimension files do.
      key: fc.option(fc.constantFrom('a:1', 'a:2', 'a:3'), { nil: undefined, freq: 3 }),
    })
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 40 }), (specs) => {
        const dir = tempDir()
        const rows = newProject(dir, 'rows.winnow')
        const logged = newProject(dir, 'log.winnow')
        try {
          const a = importSubmissions(rows, specs, { from: 'rows' })
          const b = importSubmissions(logged, specs, { from: 'log' })
          expect(b.annotations).toEqual(a.annotations)
          expect(ratingState(logged)).toEqual(ratingState(rows))
          expectConsistent(logged)
          // Every rated row keeps its file value.
          specs.forEach((s, i) => {
            if (s.fileRating === null || s.key !== undefined) return
            for (const id of b.annotations[i] ?? []) {
              const rating = logged
                .prepare('SELECT rating FROM annotations WHERE id = ?')
                .pluck()
                .get(id)
              expect(rating).toBe(s.fileRating)
            }
          })
        } finally {
          rows.close()
          logged.close()
        }
      }),
      { numRuns: Number(process.env.RATINGS_RUNS ?? 80) },
    )
  })
})
