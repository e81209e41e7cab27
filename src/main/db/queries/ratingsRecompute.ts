import type { Segment } from '../../ratings/timeline'
import type { Db } from '../connection'
import { run } from '../connection'
import { sql } from '../sql'
import { NOW, inForce } from './ratingRows'
import { SOURCE, ensureWorkTables, fillSegments } from './ratingsApply'

/**
 * Rebuilds the whole effective-rating cache from the rating tables: one range update per worker
 * segment (through the worker/time index), then the item ratings on top. Rows already right are
 * not written, so a consistent project costs only the reads.
 */
export function recomputeAllRatings(db: Db, byWorker: ReadonlyMap<number, readonly Segment[]>): number {
  ensureWorkTables(db)
  db.exec('CREATE TEMP TABLE IF NOT EXISTS rating_items (id INTEGER PRIMARY KEY, value REAL NOT NULL)')
  run(db, sql`DELETE FROM temp.rating_items`)
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
  // Correlated NOT EXISTS, not NOT IN: the statement runs once per segment.
  const noItem = sql`NOT EXISTS (SELECT 1 FROM temp.rating_items x WHERE x.id = annotations.id)`
  const update = db.prepare(
    `UPDATE annotations SET rating = ?, rating_source = ?
     WHERE worker_id = ? AND submitted_at >= ? AND submitted_at < ? AND (rating IS NOT ? OR rating_source != ?)
       AND ${noItem.text}`,
  )
  let changed = 0
  for (const [workerId, segments] of byWorker) {
    for (const s of segments) {
      const source = s.value === null ? SOURCE.unrated : SOURCE.worker
      changed += update.run(s.value, source, workerId, s.start, s.until, s.value, source).changes
    }
  }
  changed += run(
    db,
    sql`UPDATE annotations SET rating = NULL, rating_source = ${SOURCE.unrated}
        WHERE (worker_id IS NULL OR submitted_at IS NULL
            OR worker_id NOT IN (SELECT worker_id FROM temp.rating_segments))
          AND (rating IS NOT NULL OR rating_source != ${SOURCE.unrated}) AND ${noItem}`,
  ).changes
  changed += run(
    db,
    sql`UPDATE annotations SET rating = (SELECT x.value FROM temp.rating_items x WHERE x.id = annotations.id),
          rating_source = ${SOURCE.item}
        WHERE id IN (SELECT x.id FROM temp.rating_items x CROSS JOIN annotations a ON a.id = x.id
          WHERE a.rating IS NOT x.value OR a.rating_source != ${SOURCE.item})`,
  ).changes
  run(db, sql`DELETE FROM temp.rating_items`)
  return changed
}
