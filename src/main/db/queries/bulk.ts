import type { Db } from '../connection'
import { all, pluck, withPragmas } from '../connection'
import { sql } from '../sql'

/** The page cache while indexes are rebuilt, in KiB (a negative `cache_size`). */
const SORT_CACHE_KIB = -16384

/**
 * Runs a bulk write with the secondary indexes of `annotations` and `submissions` dropped and
 * rebuilt afterwards, when the write is at least as large as what the tables hold: building an
 * index from sorted rows is several times faster than updating it row by row, and an index
 * updated in random order evicts the pages the write needs from the cache. (The unique keys of
 * `submissions` stay: the writer relies on them.) Must run inside the caller's transaction, so a
 * failure or cancel restores the indexes with everything else.
 */
export function withIndexesRebuiltAfter<T>(db: Db, expectedRows: number, write: () => T): T {
  const existing = pluck<number>(db, sql`SELECT count(*) FROM annotations`) ?? 0
  if (expectedRows < Math.max(20_000, existing)) return write()
  const indexes = all<{ name: string; sql: string }>(
    db,
    sql`SELECT name, sql FROM sqlite_schema
        WHERE type = 'index' AND tbl_name IN ('annotations', 'submissions') AND sql IS NOT NULL
        ORDER BY tbl_name, name`,
  )
  for (const index of indexes) db.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`)
  const result = write()
  // SQLite sorts an index's entries in runs of the page cache's size, then merges the runs. Runs
  // of 16 MiB sort faster than the app's 64 MiB cache and bound what a large rebuild holds.
  withPragmas(db, { cache_size: SORT_CACHE_KIB }, () => {
    for (const index of indexes) db.exec(index.sql)
  })
  return result
}

/**
 * Runs a write with the trigger that lists new annotations in `rating_pending` dropped, and puts it
 * back afterwards. Only for a writer that builds the rating timelines of what it wrote itself, in
 * the same transaction (DDL is transactional, so a rollback restores the trigger too).
 */
export function withoutPendingTrigger<T>(db: Db, write: () => T): T {
  const trigger = pluck<string>(
    db,
    sql`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'annotations_rating_pending'`,
  )
  if (trigger === undefined) throw new Error('the rating_pending trigger is missing')
  db.exec('DROP TRIGGER annotations_rating_pending')
  const result = write()
  db.exec(trigger)
  return result
}
