import type { ProjectStats } from '../../../shared/contract/project'
import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { type SqlFragment, sql } from '../sql'
import { ratingKey } from '../../../shared/ratings/key'
import { countByRating } from './ratings/asOf'

/**
 * Counts for the status bar and `winnow stats`; ratings are the effective ones, now or as they
 * stood in `past` (a past view from ratingsAsOf.ts; null for the present).
 */
export function projectStats(db: Db, past: SqlFragment | null = null): ProjectStats {
  const count = (table: 'submissions' | 'annotations' | 'workers' | 'stories'): number =>
    pluck<number>(db, sql`SELECT count(*) FROM ${sql.raw(table)}`) ?? 0
  const byDimension: Record<string, number> = {}
  for (let d = 1; d <= 10; d++) byDimension[String(d)] = 0
  for (const row of all<{ dimension: number; n: number }>(
    db,
    sql`SELECT dimension, count(*) AS n FROM annotations GROUP BY dimension`,
  )) {
    byDimension[String(row.dimension)] = row.n
  }
  return {
    submissions: count('submissions'),
    annotations: count('annotations'),
    workers: count('workers'),
    stories: count('stories'),
    byDimension,
    byRating: ratingCounts(db, past),
  }
}

/** Annotations by effective rating (key as `ratingKey` writes it; `unrated` always there). */
export function ratingCounts(db: Db, past: SqlFragment | null = null): Record<string, number> {
  const byRating: Record<string, number> = {}
  for (const row of countByRating(db, past)) byRating[ratingKey(row.rating)] = row.n
  byRating.unrated ??= 0
  return byRating
}
