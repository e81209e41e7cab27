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

/** The `limit` busiest workers' dimension shares (every worker's for `null`), and the crowd's. */
export function workerDimensions(db: Db, limit: number | null): WorkerDimensionMap {
  // From the summary by worker and dimension (no worker is 0 there), and the log of moves not
  // folded in yet, added below.
  const rows = [
    ...all<{ dimension: number; workerId: number; n: number }>(
      db,
      sql`SELECT dimension, worker_id AS workerId, n FROM annotation_worker_dimensions
          WHERE worker_id > 0`,
    ),
    ...all<{ dimension: number; workerId: number; n: number }>(
      db,
      sql`SELECT dimension, worker_id AS workerId, sum(n) AS n FROM annotation_count_moves
          WHERE worker_id > 0 GROUP BY worker_id, dimension`,
    ),
  ]
  const counts = new Map<number, number[]>()
  const crowd = Array.from({ length: 10 }, () => 0)
  for (const r of rows) {
    let c = counts.get(r.workerId)
    if (!c) {
      c = Array.from({ length: 10 }, () => 0)
      counts.set(r.workerId, c)
    }
    c[r.dimension - 1] = (c[r.dimension - 1] ?? 0) + r.n
    crowd[r.dimension - 1] = (crowd[r.dimension - 1] ?? 0) + r.n
  }
  const total = (c: number[]) => c.reduce((a, b) => a + b, 0)
  for (const [id, c] of counts) if (total(c) === 0) counts.delete(id)
  const busiest = [...counts]
    .sort(([a, x], [b, y]) => total(y) - total(x) || a - b)
    .slice(0, limit ?? undefined)
  const names = new Map(
    all<{ id: number; externalId: string }>(
      db,
      sql`SELECT id, external_id AS externalId FROM workers
          WHERE id IN (SELECT value FROM json_each(${JSON.stringify(busiest.map(([id]) => id))}))`,
    ).map((w) => [w.id, w.externalId]),
  )
  const crowdTotal = total(crowd)
  return {
    workers: busiest.map(([id, c]) => {
      const n = total(c)
      return {
        workerId: names.get(id) ?? String(id),
        annotations: n,
        shares: c.map((x) => (n === 0 ? 0 : x / n)),
      }
    }),
    crowd: crowd.map((c) => (crowdTotal === 0 ? 0 : c / crowdTotal)),
    workerCount: counts.size,
  }
}
