import type { Db } from '../../connection'
import { pluck, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import type { Segment } from './segments'
import { NOW, inForce } from './rows'
import {
  SOURCE,
  applyTargets,
  ensureWorkTables,
  fillSegments,
  manyRowsFrom,
  withRatingIndexesRebuilt,
} from './apply'

/**
 * Rebuilds the whole effective-rating cache from the rating tables. First counts the rows whose
 * cached value is wrong (a few thousand index seeks when an index leads with `rating`), stopping
 * once they are enough for a bulk write; a few are then rewritten one by one; when most of the
 * table is wrong it is rewritten in one pass in row order, with the rating indexes rebuilt
 * afterwards, and that pass counts what it changed.
 *
 * Assumes, as every writer keeps it, that a timeline-rated row's source is 0 exactly when its
 * rating is null; item-rated rows are checked in full.
 */
export function recomputeAllRatings(
  db: Db,
  byWorker: ReadonlyMap<number, readonly Segment[]>,
  workers: readonly number[],
  { bulkFrom }: { bulkFrom?: number } = {},
  onStep: (detail: string) => void = () => undefined,
): number {
  prepareWork(db, byWorker, workers)
  onStep('Counting wrong ratings')
  const many = manyRowsFrom(db, bulkFrom)
  const wrong = sql`SELECT count(*) FROM (
    SELECT 1 FROM (${wrongTimelineRows} UNION ALL ${unreachedRows}) LIMIT ${many})`
  let changed: number
  if ((pluck<number>(db, wrong) ?? 0) >= many) {
    onStep('Rewriting effective ratings')
    changed = db.inTransaction
      ? withRatingIndexesRebuilt(db, () => rewriteTimelineRows(db))
      : rewriteTimelineRows(db)
  } else {
    run(db, sql`DELETE FROM temp.rating_target`)
    run(db, sql`INSERT INTO temp.rating_target (id, rating, source) ${wrongTimelineRows}`)
    run(db, sql`INSERT OR IGNORE INTO temp.rating_target (id, rating, source) ${unreachedRows}`)
    changed = 0
  }
  onStep('Checking item-rated annotations')
  // Item-rated rows, and rows an item rating once held but no longer does.
  run(
    db,
    sql`INSERT OR REPLACE INTO temp.rating_target (id, rating, source)
        SELECT a.id, x.value, ${SOURCE.item} FROM temp.rating_items x CROSS JOIN annotations a ON a.id = x.id
        WHERE a.rating IS NOT x.value OR a.rating_source != ${SOURCE.item}
        UNION ALL
        SELECT a.id, g.value, CASE WHEN g.value IS NULL THEN ${SOURCE.unrated} ELSE ${SOURCE.worker} END
        FROM (SELECT DISTINCT annotation_id AS id FROM item_ratings) o CROSS JOIN annotations a ON a.id = o.id
        LEFT JOIN temp.rating_segments g ON g.worker_id = a.worker_id
          AND g.start <= a.submitted_at AND a.submitted_at < g.until
        WHERE a.rating_source = ${SOURCE.item} AND ${noItem}`,
  )
  changed += applyTargets(db, { track: false })
  run(db, sql`DELETE FROM temp.rating_items`)
  return changed
}

const noItem = sql`NOT EXISTS (SELECT 1 FROM temp.rating_items x WHERE x.id = a.id)`

/** Timeline-rated rows whose rating is wrong, looked up per (rating held, worker, time range). */
const wrongTimelineRows: SqlFragment = sql`
  SELECT a.id, g.value, CASE WHEN g.value IS NULL THEN ${SOURCE.unrated} ELSE ${SOURCE.worker} END
  FROM temp.rating_segments g CROSS JOIN temp.rating_values r CROSS JOIN annotations a
    ON a.rating = r.value AND a.worker_id = g.worker_id
    AND a.submitted_at >= g.start AND a.submitted_at < g.until
  WHERE r.value IS NOT g.value AND ${noItem}
  UNION ALL
  SELECT a.id, g.value, ${SOURCE.worker} FROM temp.rating_segments g CROSS JOIN annotations a
    ON a.rating IS NULL AND a.worker_id = g.worker_id
    AND a.submitted_at >= g.start AND a.submitted_at < g.until
  WHERE g.value IS NOT NULL AND ${noItem}`

/** Rated rows no timeline reaches (no worker, no time): they must be unrated. */
const unreachedRows: SqlFragment = sql`
  SELECT a.id, NULL, ${SOURCE.unrated} FROM temp.rating_values r CROSS JOIN annotations a
    ON a.rating = r.value AND a.worker_id IS NULL
  WHERE ${noItem}
  UNION ALL
  SELECT a.id, NULL, ${SOURCE.unrated}
  FROM temp.rating_workers w CROSS JOIN temp.rating_values r CROSS JOIN annotations a
    ON a.rating = r.value AND a.worker_id = w.id AND a.submitted_at IS NULL
  WHERE ${noItem}`

function prepareWork(
  db: Db,
  byWorker: ReadonlyMap<number, readonly Segment[]>,
  workers: readonly number[],
): void {
  ensureWorkTables(db)
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS rating_items (id INTEGER PRIMARY KEY, value REAL NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS rating_workers (id INTEGER PRIMARY KEY);
    CREATE TEMP TABLE IF NOT EXISTS rating_values (value REAL PRIMARY KEY);`)
  run(db, sql`DELETE FROM temp.rating_items`)
  run(db, sql`DELETE FROM temp.rating_target`)
  run(
    db,
    sql`INSERT INTO temp.rating_items (id, value)
        SELECT annotation_id, value FROM (
          SELECT i.annotation_id, i.value, row_number() OVER (
            PARTITION BY i.annotation_id ORDER BY i.recorded_at DESC, i.id DESC) AS rn
          FROM item_ratings i WHERE ${inForce('item', 'i', NOW)})
        WHERE rn = 1 AND value IS NOT NULL`,
  )
  fillSegments(db, byWorker)
  run(db, sql`DELETE FROM temp.rating_workers`)
  run(
    db,
    sql`INSERT INTO temp.rating_workers (id) SELECT value FROM json_each(${JSON.stringify(workers)})`,
  )
  fillRatingValues(db)
}

/**
 * Most rows are wrong: one pass over the table in row order, each row joined to its worker's
 * segment (segments cover the whole time axis), writing only the rows that differ, so the
 * statement's change count is the count of rows moved. Rows without a worker or a time find no
 * segment and become unrated in a second, small statement. Rows with an item rating in force are
 * left to the item pass.
 */
function rewriteTimelineRows(db: Db): number {
  const source = sql`CASE WHEN g.value IS NULL THEN ${SOURCE.unrated} ELSE ${SOURCE.worker} END`
  // NOT INDEXED keeps the pass in row order: driving from the segments through ann_worker would
  // write the table in random order.
  const timed = run(
    db,
    sql`UPDATE annotations AS a NOT INDEXED SET rating = g.value, rating_source = ${source}
        FROM temp.rating_segments g
        WHERE g.worker_id = a.worker_id AND g.start <= a.submitted_at AND a.submitted_at < g.until
          AND (a.rating IS NOT g.value OR a.rating_source != ${source}) AND ${noItem}`,
  ).changes
  const untimed = run(
    db,
    sql`UPDATE annotations AS a SET rating = NULL, rating_source = ${SOURCE.unrated}
        WHERE (a.worker_id IS NULL OR a.submitted_at IS NULL)
          AND (a.rating IS NOT NULL OR a.rating_source != ${SOURCE.unrated}) AND ${noItem}`,
  ).changes
  return timed + untimed
}

/** The distinct ratings the cache holds, one index seek each (a skip scan by hand). */
function fillRatingValues(db: Db): void {
  run(db, sql`DELETE FROM temp.rating_values`)
  let previous = -Infinity
  for (;;) {
    const next = pluck<number | null>(
      db,
      sql`SELECT min(rating) FROM annotations WHERE rating > ${previous}`,
    )
    if (next === null || next === undefined) return
    run(db, sql`INSERT INTO temp.rating_values (value) VALUES (${next})`)
    previous = next
  }
}
