import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { all, pluck } from '../../src/main/db/connection'
import {
  dimensionsFilled,
  tierOverTime,
  workerDimensions,
} from '../../src/main/db/queries/dashboard'
import { sql } from '../../src/main/db/sql'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { rateWorker } from '../../src/main/ratings/rate'
import { rateSelection } from '../../src/main/ratings/rateTargets'
import { useTempDir } from '../helpers/tmp'
import { newProject } from '../ratings/helpers'

/** The dashboard's aggregates, read from the summary, equal the same figures counted plainly. */

function plainDimensions(db: Db) {
  const rows = all<{ rating: number | null; dimension: number; n: number }>(
    db,
    sql`SELECT rating, dimension, count(*) AS n FROM annotations GROUP BY 1, 2`,
  )
  const byRating = new Map<number | null, number[]>()
  for (const r of rows) {
    const counts = byRating.get(r.rating) ?? Array.from({ length: 10 }, () => 0)
    counts[r.dimension - 1] = r.n
    byRating.set(r.rating, counts)
  }
  return byRating
}

function plainWeeks(db: Db) {
  const first = pluck<number>(db, sql`SELECT min(submitted_at) FROM annotations`) ?? 0
  const start = Math.floor(first / 86400) * 86400
  return all<{ rating: number | null; week: number; n: number }>(
    db,
    sql`SELECT rating, (submitted_at - CAST(${start} AS INTEGER)) / 604800 AS week, count(*) AS n
        FROM annotations WHERE submitted_at IS NOT NULL GROUP BY 1, 2`,
  )
}

function expectPlain(db: Db): void {
  const filled = dimensionsFilled(db)
  const plain = plainDimensions(db)
  expect(new Map(filled.byRating.map((r) => [r.rating, r.counts]))).toEqual(plain)
  const weeks = tierOverTime(db)
  const fromSummary = weeks.series.flatMap((s) =>
    s.counts.flatMap((n, week) => (n ? [{ rating: s.rating, week, n }] : [])),
  )
  const byKey = (a: { rating: number | null; week: number }, b: typeof a) =>
    (a.rating ?? -99) - (b.rating ?? -99) || a.week - b.week
  expect(fromSummary.sort(byKey)).toEqual(plainWeeks(db).sort(byKey))
  const workers = workerDimensions(db, null)
  const plainWorkers = pluck<number>(
    db,
    sql`SELECT count(DISTINCT worker_id) FROM annotations WHERE worker_id IS NOT NULL`,
  )
  expect(workers.workerCount).toBe(plainWorkers)
  const busiest = workers.workers[0]
  const plainBusiest = pluck<number>(
    db,
    sql`SELECT count(*) AS n FROM annotations WHERE worker_id IS NOT NULL
        GROUP BY worker_id ORDER BY n DESC LIMIT 1`,
  )
  expect(busiest?.annotations).toBe(plainBusiest)
  // Every worker's shares, busiest first (ties by id), and the crowd's, as a plain count gives.
  const plainCells = all<{ workerId: string; dimension: number; n: number; total: number }>(
    db,
    sql`SELECT w.external_id AS workerId, a.dimension, count(*) AS n,
          (SELECT count(*) FROM annotations b WHERE b.worker_id = a.worker_id) AS total
        FROM annotations a JOIN workers w ON w.id = a.worker_id
        GROUP BY a.worker_id, a.dimension ORDER BY total DESC, a.worker_id`,
  )
  const plainMap = new Map<string, { annotations: number; counts: number[] }>()
  for (const c of plainCells) {
    const w = plainMap.get(c.workerId) ?? {
      annotations: c.total,
      counts: Array.from({ length: 10 }, () => 0),
    }
    w.counts[c.dimension - 1] = c.n
    plainMap.set(c.workerId, w)
  }
  const expected = [...plainMap].map(([workerId, w]) => ({
    workerId,
    annotations: w.annotations,
    shares: w.counts.map((x) => x / w.annotations),
  }))
  expect(workers.workers).toEqual(expected)
  expect(workerDimensions(db, 3).workers).toEqual(expected.slice(0, 3))
  const crowd = Array.from({ length: 10 }, () => 0)
  for (const c of plainCells) crowd[c.dimension - 1] = (crowd[c.dimension - 1] ?? 0) + c.n
  const crowdTotal = crowd.reduce((a, b) => a + b, 0)
  expect(workers.crowd).toEqual(crowd.map((c) => c / crowdTotal))
}

describe('the dashboard from the summary', () => {
  const tempDir = useTempDir()

  it('gives the figures a plain count gives, before and after ratings', () => {
    const db = newProject(tempDir())
    writeSynthetic(db, { submissions: 600, seed: 11 })
    expectPlain(db)
    const worker = pluck<number>(db, sql`SELECT worker_id FROM annotations LIMIT 1`) ?? 0
    const from = pluck<number>(db, sql`SELECT min(submitted_at) FROM annotations`) ?? 0
    rateWorker(db, { author: 't', workerId: worker, value: -2, from: from - (from % 86400) })
    const ids = all<{ id: number }>(db, sql`SELECT id FROM annotations LIMIT 40`).map((r) => r.id)
    rateSelection(db, { annotationIds: ids, submissionIds: [] }, { author: 't', value: null })
    rateSelection(db, { annotationIds: ids.slice(5), submissionIds: [] }, { author: 't', value: 3 })
    expectPlain(db)
    db.close()
  })
})
