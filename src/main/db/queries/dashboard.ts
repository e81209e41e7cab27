import type {
  DaySubmissions,
  DimensionsFilled,
  TierOverTime,
  WorkerDimensionMap,
} from '../../../shared/contract/dashboard'
import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { sql } from '../sql'
import { SUMMARY_NO_DAY, ratingOf, summaryRelation } from './annotationCounts'
import { submissionDays } from './submissionCounts'

export const byRatingDesc = (a: { rating: number | null }, b: { rating: number | null }) =>
  (b.rating ?? -Infinity) - (a.rating ?? -Infinity)

/** Submissions per day (UTC), from their summary by day (migration 018). */
export function submissionsPerDay(db: Db): DaySubmissions[] {
  return submissionDays(db)
}

/** Annotations per dimension overall and per effective rating (the GLUCOSE report's figures). */
export function dimensionsFilled(db: Db): DimensionsFilled {
  // From the day summary: a few thousand rows instead of every annotation.
  const rows = all<{ rating: number; dimension: number; n: number }>(
    db,
    sql`SELECT rating, dimension, sum(n) AS n FROM ${summaryRelation('day')}
        GROUP BY rating, dimension`,
  )
  const byKey = new Map<number, number[]>()
  for (const r of rows) {
    let counts = byKey.get(r.rating)
    if (!counts) {
      counts = Array.from({ length: 10 }, () => 0)
      byKey.set(r.rating, counts)
    }
    counts[r.dimension - 1] = (counts[r.dimension - 1] ?? 0) + r.n
  }
  const byRating = [...byKey]
    .filter(([, counts]) => counts.some((n) => n !== 0))
    .map(([key, counts]) => ({ rating: ratingOf(key), counts }))
    .sort(byRatingDesc)
  const overall = Array.from({ length: 10 }, (_, i) =>
    byRating.reduce((sum, r) => sum + (r.counts[i] ?? 0), 0),
  )
  return { overall, byRating }
}

/** Annotations per week by effective rating. */
export function tierOverTime(db: Db): TierOverTime {
  const first = pluck<number | null>(db, sql`SELECT min(submitted_at) FROM annotations`) ?? null
  if (first === null) return { weeks: [], series: [] }
  const start = Math.floor(first / 86400) * 86400
  // Weeks start on the first day, so a day's week is exact: (day - first day) / 7.
  const rows = all<{ rating: number | null; week: number; n: number }>(
    db,
    sql`SELECT CASE WHEN rating = 9e999 THEN NULL ELSE rating END AS rating,
          (day - CAST(${start / 86400} AS INTEGER)) / 7 AS week, sum(n) AS n
        FROM ${summaryRelation('day')} WHERE day <> ${SUMMARY_NO_DAY}
        GROUP BY 1, 2 HAVING sum(n) <> 0`,
  )
  const weekCount = rows.reduce((m, r) => Math.max(m, r.week + 1), 0)
  const weeks = Array.from({ length: weekCount }, (_, i) => start + i * 604800)
  const series = new Map<number | null, number[]>()
  for (const r of rows) {
    let counts = series.get(r.rating)
    if (!counts) {
      counts = Array.from({ length: weekCount }, () => 0)
      series.set(r.rating, counts)
    }
    counts[r.week] = r.n
  }
  return {
    weeks,
    series: [...series].map(([rating, counts]) => ({ rating, counts })).sort(byRatingDesc),
  }
}

/**
 * The summary by worker and dimension (no worker is 0 there) with the log of moves not folded in
 * yet, as cells to sum; a worker whose cells sum to 0 has no annotations left.
 */
const WORKER_DIMENSION_CELLS = sql`WITH cells AS (
    SELECT worker_id, dimension, n FROM annotation_worker_dimensions WHERE worker_id > 0
    UNION ALL
    SELECT worker_id, dimension, n FROM annotation_count_moves WHERE worker_id > 0
  )`

/** The `limit` busiest workers' dimension shares (every worker's for `null`), and the crowd's. */
export function workerDimensions(db: Db, limit: number | null): WorkerDimensionMap {
  // Summed in SQL: only the busiest workers' cells and the crowd's ten reach JavaScript.
  const crowd = Array.from({ length: 10 }, () => 0)
  for (const r of all<{ dimension: number; n: number }>(
    db,
    sql`${WORKER_DIMENSION_CELLS} SELECT dimension, sum(n) AS n FROM cells GROUP BY dimension`,
  ))
    crowd[r.dimension - 1] = r.n
  const workerCount =
    pluck<number>(
      db,
      sql`${WORKER_DIMENSION_CELLS} SELECT count(*) FROM (
          SELECT worker_id FROM cells GROUP BY worker_id HAVING sum(n) <> 0)`,
    ) ?? 0
  const cells = all<{ workerId: string; dimension: number; n: number; total: number }>(
    db,
    sql`${WORKER_DIMENSION_CELLS}, busiest AS (
          SELECT worker_id, sum(n) AS total FROM cells GROUP BY worker_id HAVING total <> 0
          ORDER BY total DESC, worker_id LIMIT ${limit ?? -1})
        SELECT coalesce(w.external_id, CAST(b.worker_id AS TEXT)) AS workerId, c.dimension,
          sum(c.n) AS n, b.total
        FROM busiest b JOIN cells c ON c.worker_id = b.worker_id
        LEFT JOIN workers w ON w.id = b.worker_id
        GROUP BY b.worker_id, c.dimension
        ORDER BY b.total DESC, b.worker_id`,
  )
  // Rows come busiest worker first; a Map keeps that order.
  const byWorker = new Map<string, { counts: number[]; total: number }>()
  for (const cell of cells) {
    let w = byWorker.get(cell.workerId)
    if (!w) {
      w = { counts: Array.from({ length: 10 }, () => 0), total: cell.total }
      byWorker.set(cell.workerId, w)
    }
    w.counts[cell.dimension - 1] = cell.n
  }
  const workers = [...byWorker].map(([workerId, w]) => ({
    workerId,
    annotations: w.total,
    shares: w.counts.map((x) => x / w.total),
  }))
  const crowdTotal = crowd.reduce((a, b) => a + b, 0)
  return {
    workers,
    crowd: crowd.map((c) => (crowdTotal === 0 ? 0 : c / crowdTotal)),
    workerCount,
  }
}
