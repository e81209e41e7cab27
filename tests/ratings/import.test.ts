import fc from 'fast-check'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFiles } from '../../src/main/importers/run'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { planWorker } from '../../src/main/ratings/importTimelines'
import { rateWorker } from '../../src/main/ratings/rate'
import { history } from '../../src/main/ratings/history'
import { useTempDir } from '../helpers/tmp'
import {
  DAY,
  cached,
  day,
  expectConsistent,
  importSubmissions,
  newProject,
  workerId,
} from './helpers'

const SCALE = [3, 2, 1.5, 1, 0, -1, -2]
const START = day('2019-09-01')

function countRows(db: ReturnType<typeof newProject>, table: string, changeSet: number): number {
  return db
    .prepare(`SELECT count(*) FROM ${table} WHERE change_set_id = ?`)
    .pluck()
    .get(changeSet) as number
}

describe('ratings from imported files', () => {
  const tempDir = useTempDir()

  it('plans one rating per run of equal values and keeps same-time disagreements apart', () => {
    const g = (t: number, value: number) => ({ workerId: 1, submittedAt: t, value })
    expect(planWorker([g(1, 2), g(2, 2), g(3, 3), g(4, 3), g(4, 1), g(5, 3), g(6, 2)])).toEqual({
      runs: [
        { start: 1, value: 2 },
        { start: 3, value: 3 },
        { start: 6, value: 2 },
      ],
      conflicts: [4],
    })
  })

  it('turns a worker’s file values into a timeline, with item ratings where one day disagrees', () => {
    const db = newProject(tempDir())
    const at = (d: number) => START + d * DAY
    const { changeSet, annotations } = importSubmissions(db, [
      { worker: 'W', at: at(0), fileRating: -1 },
      { worker: 'W', at: at(1), fileRating: -1 },
      { worker: 'W', at: at(3), fileRating: 2 },
      { worker: 'W', at: at(3), fileRating: 3 },
      { worker: 'W', at: at(5), fileRating: 2 },
      { worker: 'W', at: at(8), fileRating: 3 },
      { worker: null, at: null, fileRating: 1 },
    ])
    const w = workerId(db, 'W')
    const timeline = db
      .prepare(
        'SELECT effective_from AS d, value FROM worker_ratings WHERE worker_id = ? ORDER BY d',
      )
      .all(w)
    expect(timeline).toEqual([
      { d: at(0), value: -1 },
      { d: at(5), value: 2 },
      { d: at(8), value: 3 },
    ])
    // Both day-3 submissions (4 annotations) and the worker-less one keep item ratings.
    expect(countRows(db, 'item_ratings', changeSet)).toBe(6)
    const ratings = cached(db)
    const fileValues = [-1, -1, 2, 3, 2, 3, 1]
    annotations.forEach((ids, i) =>
      ids.forEach((id) => expect(ratings.get(id)).toBe(fileValues[i])),
    )
    expectConsistent(db)
    const entry = history(db).find((c) => c.id === changeSet)
    expect(entry).toMatchObject({ kind: 'import', changed: 14 })
    db.close()
  })

  it('reconstructs annotations merged into a submission by a later import', () => {
    const db = newProject(tempDir())
    importSubmissions(db, [{ worker: 'W', at: START, fileRating: 2, dimensions: 2, key: 'a:X' }])
    rateWorker(db, { author: 't', workerId: workerId(db, 'W'), value: 0, from: START })
    // The later file repeats the assignment with two more dimensions and its own rating.
    const { annotations } = importSubmissions(db, [
      { worker: 'W', at: START, fileRating: 3, dimensions: 4, key: 'a:X' },
    ])
    const ratings = cached(db)
    expect(annotations[0]?.map((id) => ratings.get(id))).toEqual([0, 0, 3, 3])
    expectConsistent(db)
    db.close()
  })

  it('settles annotations a writer left pending before the next rating change', () => {
    const db = newProject(tempDir())
    writeSynthetic(db, { submissions: 60, seed: 3 })
    const w = db
      .prepare('SELECT worker_id FROM annotations WHERE worker_id IS NOT NULL LIMIT 1')
      .pluck()
      .get() as number
    const rated = rateWorker(db, { author: 't', workerId: w, value: 3, from: START + 200 * DAY })
    const kinds = history(db).map((c) => c.kind)
    expect(kinds.slice(0, 2)).toEqual(['manual', 'import'])
    expect(rated.changed).toBe(0)
    const mismatched = db
      .prepare(
        'SELECT count(*) FROM annotations WHERE file_rating IS NOT NULL AND rating IS NOT file_rating',
      )
      .pluck()
      .get() as number
    expect(mismatched).toBe(0)
    expectConsistent(db)
    db.close()
  })

  it('hooks into the import: every imported annotation keeps its file value', () => {
    const db = newProject(tempDir())
    importFiles(db, [{ path: join(import.meta.dirname, '../fixtures/glucose/release.csv') }], {
      author: 'test',
    })
    const mismatched = db
      .prepare('SELECT count(*) FROM annotations WHERE rating IS NOT file_rating')
      .pluck()
      .get() as number
    expect(mismatched).toBe(0)
    const rows = db.prepare('SELECT count(*) FROM worker_ratings').pluck().get() as number
    expect(rows).toBeGreaterThan(0)
    expectConsistent(db)
    db.close()
  })

  it('gives every new annotation its file value and moves no earlier rating (property)', () => {
    const spec = fc.record({
      worker: fc.option(fc.constantFrom('A', 'B', 'C', 'D'), { nil: null, freq: 12 }),
      at: fc.option(
        fc.integer({ min: 0, max: 25 }).map((d) => START + d * DAY),
        { nil: null, freq: 15 },
      ),
      fileRating: fc.option(fc.constantFrom(...SCALE), { nil: null, freq: 8 }),
      dimensions: fc.integer({ min: 1, max: 3 }),
    })
    const manual = fc.record({
      worker: fc.constantFrom('A', 'B', 'C', 'D'),
      day: fc.integer({ min: -3, max: 28 }),
      value: fc.constantFrom(...SCALE),
    })
    const batch = fc.record({
      submissions: fc.array(spec, { maxLength: 30 }),
      manual: fc.array(manual, { maxLength: 2 }),
    })
    fc.assert(
      fc.property(fc.array(batch, { minLength: 1, maxLength: 3 }), (batches) => {
        const db = newProject(tempDir())
        try {
          for (const b of batches) {
            const before = cached(db)
            const { annotations } = importSubmissions(db, b.submissions)
            const after = cached(db)
            b.submissions.forEach((s, i) => {
              if (s.fileRating === null) return
              for (const id of annotations[i] ?? []) expect(after.get(id)).toBe(s.fileRating)
            })
            for (const [id, rating] of before)
              if (rating !== null) expect(after.get(id)).toBe(rating)
            expectConsistent(db)
            for (const m of b.manual) {
              const w = db
                .prepare('SELECT id FROM workers WHERE external_id = ?')
                .pluck()
                .get(m.worker) as number | undefined
              if (w !== undefined)
                rateWorker(db, {
                  author: 't',
                  workerId: w,
                  value: m.value,
                  from: START + m.day * DAY,
                })
            }
            expectConsistent(db)
          }
        } finally {
          db.close()
        }
      }),
      { numRuns: Number(process.env.RATINGS_RUNS ?? 60) },
    )
  })
})
