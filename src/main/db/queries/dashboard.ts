import type {
  DaySubmissions,
  DimensionsFilled,
  TierOverTime,
  WorkerDimensionMap,
} from '../../../shared/contract/dashboard'
import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { sql } from '../sql'

/** Ten per-dimension sums in one pass: grouping by a leading index column needs no sort. */
const PER_DIMENSION = sql.raw(
  Array.from({ length: 10 }, (_, i) => `sum(dimension = ${i + 1}) AS d${i + 1}`).join(', '),
)

type DimensionSums = Record<`d${number}`, number>

function dimensionCounts(row: DimensionSums): number[] {
  return Array.from({ length: 10 }, (_, i) => row[`d${i + 1}`] ?? 0)
}

export const byRatingDesc = (a: { rating: number | null }, b: { rating: number | null }) =>
  (b.rating ?? -Infinity) - (a.rating ?? -Infinity)

/** Submissions per day (UTC), from the worker index (it holds every submission's time). */
export function submissionsPerDay(db: Db): DaySubmissions[] {
  return all<DaySubmissions>(
    db,
    sql`SELECT (submitted_at / 86400) * 86400 AS day, count(*) AS submissions
        FROM submissions INDEXED BY submissions_worker
        WHERE submitted_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
  )
}

/** Annotations per dimension overall and per effective rating (the GLUCOSE report's figures). */
export function dimensionsFilled(db: Db): DimensionsFilled {
  const byRating = all<{ rating: number | null } & DimensionSums>(
    db,
    sql`SELECT rating, ${PER_DIMENSION} FROM annotations INDEXED BY ann_rating GROUP BY rating`,
  )
    .map((row) => ({ rating: row.rating, counts: dimensionCounts(row) }))
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
  const rows = all<{ rating: number | null; week: number; n: number }>(
    db,
    sql`SELECT rating, (submitted_at - ${start}) / 604800 AS week, count(*) AS n
        FROM annotations INDEXED BY ann_rating WHERE submitted_at IS NOT NULL
        GROUP BY rating, week`,
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
  // Grouped in the order of ann_dimension (dimension, worker): one pass, no sort.
  const rows = all<{ dimension: number; workerId: number; n: number }>(
    db,
    sql`SELECT dimension, worker_id AS workerId, count(*) AS n
        FROM annotations INDEXED BY ann_dimension WHERE worker_id IS NOT NULL
        GROUP BY dimension, worker_id`,
  )
  const counts = new Map<number, number[]>()
  const crowd = Array.from({ length: 10 }, () => 0)
  for (const r of rows) {
    let c = counts.get(r.workerId)
    if (!c) {
      c = Array.from({ length: 10 }, () => 0)
      counts.set(r.workerId, c)
    }
    c[r.dimension - 1] = r.n
    crowd[r.dimension - 1] = (crowd[r.dimension - 1] ?? 0) + r.n
  }
  const total = (c: number[]) => c.reduce((a, b) => a + b, 0)
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
