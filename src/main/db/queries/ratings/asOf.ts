import type { Db } from '../../connection'
import { all, pluck, pluckAll } from '../../connection'
import { summaryRelation } from '../annotationCounts'
import { type SqlFragment, sql } from '../../sql'
import {
  addToSelection,
  computeTargets,
  ensureWorkTables,
  fillSegments,
  fillSelection,
  selectionWorkers,
} from './apply'
import type { Segment } from './segments'

/**
 * "As of T": the annotations relation with `rating` and `rating_source` as they stood at T (epoch
 * ms), i.e. computed from rating rows recorded by T and not retracted by T. Only annotations that
 * something after T could have changed are recomputed (into a temp table); every other row reads
 * the live cache, which already holds its value at T. The rating rules decide when to build it and
 * supply the workers' timelines at T; the queries here select, write and read it.
 *
 * Queries take the past as `past`: the relation `writePastRatings` returned, or null for the
 * present (the live table and its index plans).
 */

const AS_OF = sql.raw('temp.annotations_as_of')

/**
 * What a past view was built from besides T: it is stale once any of these moved. `lastActivity`
 * is `lastRatingActivity`, which the caller has read already.
 */
export function pastRatingsStamp(db: Db, lastActivity: number): string {
  const changeSet = pluck<number>(db, sql`SELECT max(id) FROM change_sets`) ?? 0
  const annotation = pluck<number>(db, sql`SELECT max(id) FROM annotations`) ?? 0
  return `${changeSet}|${annotation}|${lastActivity}`
}

/**
 * Selects the annotations whose rating something recorded after `asOf` could have changed (a
 * worker rating or an item rating recorded or retracted since) and returns their workers.
 */
export function selectRatedAfter(db: Db, asOf: number): number[] {
  // Separate inserts, not one UNION: each reads its own index range.
  fillSelection(
    db,
    sql`SELECT a.id FROM annotations a WHERE a.worker_id IN (
          SELECT worker_id FROM worker_ratings WHERE recorded_at > ${asOf}
          UNION SELECT w.worker_id FROM rating_retractions r CROSS JOIN worker_ratings w ON w.id = r.rating_id
          WHERE r.target = 'worker' AND r.recorded_at > ${asOf})`,
  )
  addToSelection(db, sql`SELECT annotation_id AS id FROM item_ratings WHERE recorded_at > ${asOf}`)
  addToSelection(
    db,
    sql`SELECT i.annotation_id AS id FROM rating_retractions r CROSS JOIN item_ratings i ON i.id = r.rating_id
        WHERE r.target = 'item' AND r.recorded_at > ${asOf}`,
  )
  return selectionWorkers(db)
}

/**
 * Writes the ratings the selected annotations had at `asOf` (from `timelines`, their workers'
 * timelines at `asOf`, and the item ratings in force then) and returns the relation that reads
 * them over the live table.
 */
export function writePastRatings(
  db: Db,
  asOf: number,
  timelines: ReadonlyMap<number, readonly Segment[]>,
): SqlFragment {
  ensureWorkTables(db)
  db.exec(
    'CREATE TEMP TABLE IF NOT EXISTS ratings_as_of (id INTEGER PRIMARY KEY, rating REAL, source INTEGER)',
  )
  fillSegments(db, timelines)
  computeTargets(db, asOf, { into: 'ratings_as_of' })
  createView(db)
  return AS_OF
}

export interface RatingAsOfSql {
  /** Add after `FROM annotations <alias>` (empty for the present). */
  join: SqlFragment
  /** The effective rating and its source at the past moment, over `<alias>`. */
  rating: SqlFragment
  source: SqlFragment
}

/**
 * For queries that keep reading `annotations` itself (to keep their index plans) and only need
 * the rating as it stood in `past`: a join to the rows that differed then and the expressions to
 * use instead.
 */
export function ratingAsOfSql(past: SqlFragment | null, alias = 'a'): RatingAsOfSql {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias)) throw new Error(`not an alias: ${alias}`)
  const a = sql.raw(alias)
  if (past === null) {
    return { join: sql.empty, rating: sql`${a}.rating`, source: sql`${a}.rating_source` }
  }
  const r = sql.raw(`${alias}_as_of`)
  return {
    join: sql`LEFT JOIN temp.ratings_as_of ${r} ON ${r}.id = ${a}.id`,
    rating: sql`CASE WHEN ${r}.id IS NULL THEN ${a}.rating ELSE ${r}.rating END`,
    source: sql`CASE WHEN ${r}.id IS NULL THEN ${a}.rating_source ELSE ${r}.source END`,
  }
}

/**
 * Annotations by effective rating, now or in `past` (highest first, unrated last): the live
 * counts, corrected by the rows that differed then, so a recent moment costs little more than now.
 */
export function countByRating(
  db: Db,
  past: SqlFragment | null = null,
): { rating: number | null; n: number }[] {
  // The present's counts from the day summary (a few thousand rows), not every annotation.
  const live = all<{ rating: number | null; n: number }>(
    db,
    sql`SELECT CASE WHEN rating = 9e999 THEN NULL ELSE rating END AS rating, sum(n) AS n
        FROM ${summaryRelation('day')} GROUP BY 1 HAVING sum(n) <> 0`,
  )
  const counts = new Map(live.map((r) => [r.rating, r.n]))
  if (past !== null) {
    for (const d of all<{ live: number | null; past: number | null; n: number }>(
      db,
      sql`SELECT a.rating AS live, r.rating AS past, count(*) AS n
          FROM temp.ratings_as_of r CROSS JOIN annotations a ON a.id = r.id
          WHERE a.rating IS NOT r.rating GROUP BY 1, 2`,
    )) {
      counts.set(d.live, (counts.get(d.live) ?? 0) - d.n)
      counts.set(d.past, (counts.get(d.past) ?? 0) + d.n)
    }
  }
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([rating, n]) => ({ rating, n }))
    .sort((a, b) => (b.rating ?? -Infinity) - (a.rating ?? -Infinity))
}

/** Same columns as `annotations`, read from the schema so columns added later come along. */
function createView(db: Db): void {
  const columns = pluckAll<string>(db, sql`SELECT name FROM pragma_table_info('annotations')`)
  const select = columns.map((name) => {
    const quoted = `"${name.replace(/"/g, '""')}"`
    if (name === 'rating') return 'CASE WHEN r.id IS NULL THEN a.rating ELSE r.rating END AS rating'
    if (name === 'rating_source') {
      return 'CASE WHEN r.id IS NULL THEN a.rating_source ELSE r.source END AS rating_source'
    }
    return `a.${quoted}`
  })
  db.exec('DROP VIEW IF EXISTS temp.annotations_as_of')
  db.exec(`CREATE TEMP VIEW annotations_as_of AS SELECT ${select.join(', ')}
    FROM main.annotations a LEFT JOIN temp.ratings_as_of r ON r.id = a.id`)
}
