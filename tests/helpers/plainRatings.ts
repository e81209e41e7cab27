import type { Db } from '../../src/main/db/connection'
import { all, run } from '../../src/main/db/connection'
import { NOW, inForce } from '../../src/main/db/queries/ratings/rows'
import { type SqlFragment, sql } from '../../src/main/db/sql'

/**
 * The effective rating written the plain way: a correlated subquery over the rating tables per
 * annotation. The reference the benchmark measures against and the tests check the cache with.
 */
export function plainEffectiveRating(asOf = NOW, alias = 'a'): SqlFragment {
  return sql`coalesce(${plainItemRating(asOf, alias)}, ${plainWorkerRating(asOf, alias)})`
}

function plainItemRating(asOf: number, alias: string): SqlFragment {
  return sql`(SELECT i.value FROM item_ratings i WHERE i.annotation_id = ${sql.raw(alias)}.id
    AND ${inForce('item', 'i', asOf)} ORDER BY i.recorded_at DESC, i.id DESC LIMIT 1)`
}

function plainWorkerRating(asOf: number, alias: string): SqlFragment {
  const a = sql.raw(alias)
  return sql`(SELECT w.value FROM worker_ratings w
    WHERE w.worker_id = ${a}.worker_id AND w.effective_from <= ${a}.submitted_at AND ${inForce('worker', 'w', asOf)}
    ORDER BY w.effective_from DESC, w.recorded_at DESC, w.id DESC LIMIT 1)`
}

/** Annotation id → effective rating, computed the plain way (for checks on small projects). */
export function plainRatings(db: Db, asOf = NOW): Map<number, number | null> {
  const rows = all<{ id: number; rating: number | null }>(
    db,
    sql`SELECT a.id, ${plainEffectiveRating(asOf)} AS rating FROM annotations a ORDER BY a.id`,
  )
  return new Map(rows.map((r) => [r.id, r.rating]))
}

/** Rewrites rating and source of the rows `where` selects (over `a`) the plain way. */
export function plainUpdate(db: Db, where: SqlFragment = sql`1`): number {
  return run(
    db,
    sql`UPDATE annotations AS a SET (rating, rating_source) = (
          SELECT coalesce(q.iv, q.wv), CASE WHEN q.iv IS NOT NULL THEN 2 WHEN q.wv IS NOT NULL THEN 1 ELSE 0 END
          FROM (SELECT ${plainItemRating(NOW, 'a')} AS iv, ${plainWorkerRating(NOW, 'a')} AS wv) AS q)
        WHERE ${where}`,
  ).changes
}
