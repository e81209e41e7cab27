import type { Db } from '../../connection'
import { all, pluckAll } from '../../connection'
import { sql } from '../../sql'
import { NOW, inForce } from './rows'

/** Read models for the worker panel and the scale editor. */

export interface DailyVolume {
  /** Epoch seconds at 00:00 UTC. */
  day: number
  submissions: number
  annotations: number
  byRating: { rating: number | null; n: number }[]
}

/** Submissions per day, and their annotations per day by effective rating. */
export function dailyVolume(db: Db, workerId: number): DailyVolume[] {
  const days = new Map<number, DailyVolume>()
  for (const row of all<{ day: number; n: number }>(
    db,
    sql`SELECT (submitted_at / 86400) * 86400 AS day, count(*) AS n FROM submissions
        WHERE worker_id = ${workerId} AND submitted_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
  )) {
    days.set(row.day, { day: row.day, submissions: row.n, annotations: 0, byRating: [] })
  }
  for (const row of all<{ day: number; rating: number | null; n: number }>(
    db,
    sql`SELECT (submitted_at / 86400) * 86400 AS day, rating, count(*) AS n FROM annotations
        WHERE worker_id = ${workerId} AND submitted_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2 DESC`,
  )) {
    let entry = days.get(row.day)
    if (!entry) {
      entry = { day: row.day, submissions: 0, annotations: 0, byRating: [] }
      days.set(row.day, entry)
    }
    entry.annotations += row.n
    entry.byRating.push({ rating: row.rating, n: row.n })
  }
  return [...days.values()].sort((a, b) => a.day - b.day)
}

/** Every rating value some annotation has now or some rating in force could give. */
export function ratingValuesInUse(db: Db): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT DISTINCT rating FROM annotations WHERE rating IS NOT NULL
        UNION SELECT DISTINCT w.value FROM worker_ratings w WHERE ${inForce('worker', 'w', NOW)}`,
  )
}
