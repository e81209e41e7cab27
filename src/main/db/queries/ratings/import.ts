import { BatchInsert } from '../../batch'
import type { Db } from '../../connection'
import { all, pluck, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { SOURCE } from './apply'

/**
 * Queries of the import reconstruction (file ratings → worker timelines). A trigger lists every
 * annotation written since the last reconstruction in `rating_pending`, whoever wrote it.
 */

const PENDING = sql`SELECT annotation_id FROM rating_pending`

/** 0 or 1: whether any annotation waits for the reconstruction. */
export function pendingCount(db: Db): number {
  return pluck<number>(db, sql`SELECT count(*) FROM (SELECT 1 FROM rating_pending LIMIT 1)`) ?? 0
}

/**
 * Whether the project holds no annotation and no rating yet. An import into such a project can
 * build the timelines from what it wrote (the writers' file rating log) instead of reading its
 * rows back: nothing earlier can move.
 */
export function hasNoRatings(db: Db): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT NOT (EXISTS (SELECT 1 FROM annotations) OR EXISTS (SELECT 1 FROM worker_ratings)
          OR EXISTS (SELECT 1 FROM item_ratings) OR EXISTS (SELECT 1 FROM rating_pending))`,
    ) === 1
  )
}

/** Item ratings with the given values, written in the order given. */
export function insertItemRatingValues(
  db: Db,
  rows: Iterable<{ annotationId: number; value: number }>,
  by: { changeSetId: number; at: number; author: string; note: string },
): number {
  const batch = new BatchInsert(
    db,
    'INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)',
    6,
  )
  let n = 0
  for (const row of rows) {
    batch.add(row.annotationId, row.value, by.at, by.author, by.note, by.changeSetId)
    n++
  }
  batch.flush()
  return n
}

/** Writes cached effective ratings: `[id, rating, source]` triples. */
export function setCachedRatings(
  db: Db,
  rows: Iterable<readonly [id: number, rating: number | null, source: number]>,
): void {
  const update = db.prepare('UPDATE annotations SET rating = ?, rating_source = ? WHERE id = ?')
  for (const [id, rating, source] of rows) update.run(rating, source, id)
}

export function clearPending(db: Db): void {
  run(db, sql`DELETE FROM rating_pending`)
}

export interface FileRatingGroup {
  workerId: number
  submittedAt: number
  value: number
}

/** Distinct (worker, submission time, file value) of pending annotations, in time order per worker. */
export function fileRatingGroups(db: Db): FileRatingGroup[] {
  return all<FileRatingGroup>(
    db,
    sql`SELECT a.worker_id AS workerId, a.submitted_at AS submittedAt, a.file_rating AS value
        FROM rating_pending p CROSS JOIN annotations a ON a.id = p.annotation_id
        WHERE a.worker_id IS NOT NULL AND a.submitted_at IS NOT NULL AND a.file_rating IS NOT NULL
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  )
}

/** Pending annotations whose file rating cannot sit on a timeline: no worker or no time. */
export function unplaceablePending(): SqlFragment {
  return sql`SELECT a.id, a.file_rating AS value FROM rating_pending p CROSS JOIN annotations a ON a.id = p.annotation_id
    WHERE a.file_rating IS NOT NULL AND (a.worker_id IS NULL OR a.submitted_at IS NULL)`
}

/** Pending annotations at one (worker, time) where the files give several values. */
export function pendingAt(workerId: number, submittedAt: number): SqlFragment {
  return sql`SELECT id, file_rating AS value FROM annotations
    WHERE worker_id = ${workerId} AND submitted_at = ${submittedAt} AND file_rating IS NOT NULL
      AND id IN (${PENDING})`
}

/** Every annotation waiting for the reconstruction, as a query of ids. */
export const pendingAnnotations = sql`SELECT annotation_id AS id FROM rating_pending`

/** A worker's annotations submitted in [start, until). */
export function annotationsBetween(workerId: number, start: number, until: number): SqlFragment {
  return sql`SELECT id FROM annotations
    WHERE worker_id = ${workerId} AND submitted_at >= ${start} AND submitted_at < ${until}`
}

/**
 * Pins, with an item rating, every row of `rating_target` the timelines did not get right: a
 * pending annotation whose file value differs, or an earlier rated one the new timeline would move.
 */
export function pinMismatches(
  db: Db,
  changeSet: { id: number; at: number },
  author: string,
): number {
  run(
    db,
    sql`CREATE TEMP TABLE IF NOT EXISTS rating_pins (id INTEGER PRIMARY KEY, value REAL NOT NULL)`,
  )
  run(db, sql`DELETE FROM temp.rating_pins`)
  const pinned = run(
    db,
    sql`INSERT INTO temp.rating_pins (id, value)
        SELECT a.id, CASE WHEN p.annotation_id IS NULL THEN a.rating ELSE a.file_rating END
        FROM temp.rating_target t CROSS JOIN annotations a ON a.id = t.id
        LEFT JOIN rating_pending p ON p.annotation_id = a.id
        WHERE (p.annotation_id IS NOT NULL AND a.file_rating IS NOT NULL AND t.rating IS NOT a.file_rating)
           OR (p.annotation_id IS NULL AND a.rating IS NOT NULL AND t.rating IS NOT a.rating)`,
  ).changes
  if (pinned === 0) return 0
  run(
    db,
    sql`INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)
        SELECT id, value, ${changeSet.at}, ${author}, 'kept as imported', ${changeSet.id}
        FROM temp.rating_pins ORDER BY id`,
  )
  run(
    db,
    sql`UPDATE temp.rating_target SET rating = x.value, source = ${SOURCE.item}
        FROM temp.rating_pins x WHERE rating_target.id = x.id`,
  )
  return pinned
}

/** Old values of pending annotations count as unrated, so the import reports what it rated. */
export function trackPendingAsUnrated(db: Db): void {
  run(
    db,
    sql`INSERT OR IGNORE INTO temp.rating_before (id, rating, source)
        SELECT annotation_id, NULL, ${SOURCE.unrated} FROM rating_pending`,
  )
}
