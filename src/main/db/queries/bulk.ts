import { type Db, type TemporaryPragmas, all, pluck, withPragmas } from '../connection'
import { sql } from '../sql'
import { withCountsRebuiltAfter } from './annotationCounts'
import { withSubmissionCountsRebuiltAfter } from './submissionCounts'

/**
 * How indexes are rebuilt: SQLite sorts an index's entries in runs the size of the page cache,
 * each run on a worker thread while the next one is read, then merges them. Small runs keep both
 * cores busy; with the connection's temporary files on disk (`TempStore.file`, which the caller
 * sets around its transaction) they are written and read back faster than in SQLite's in-memory
 * journal; larger runs sorted in memory on one thread measured slower (docs/benchmarks.md, the
 * import's index rebuild).
 */
export const REBUILD_PRAGMAS = { cache_size: -2048, threads: 2 } satisfies TemporaryPragmas

export interface RebuildHooks {
  /**
   * Called before each index is built, with how many of how many are built. It may throw (a
   * cancel): the caller's transaction then rolls back, indexes included.
   */
  beforeIndex?(built: number, total: number): void
}

/**
 * Runs a bulk write with the secondary indexes of `annotations` and `submissions` dropped and
 * rebuilt afterwards, when the write is at least as large as what the tables hold: building an
 * index from sorted rows is much faster than updating it row by row, and an index
 * updated in random order evicts the pages the write needs from the cache. (The unique keys of
 * `submissions` stay: the writer relies on them; so does `submissions_story` when the project
 * holds work already, since the writer looks each new submission up there under the other
 * layout's key.) Must run inside the caller's transaction, so a
 * failure or cancel restores the indexes with everything else.
 */
export function withIndexesRebuiltAfter<T>(
  db: Db,
  expectedRows: number,
  write: () => T,
  hooks: RebuildHooks = {},
): T {
  const existing = pluck<number>(db, sql`SELECT count(*) FROM annotations`) ?? 0
  if (expectedRows < Math.max(20_000, existing)) return write()
  const indexes = all<{ name: string; sql: string }>(
    db,
    sql`SELECT name, sql FROM sqlite_schema
        WHERE type = 'index' AND tbl_name IN ('annotations', 'submissions') AND sql IS NOT NULL
          AND NOT (name = 'submissions_story' AND ${existing} > 0)
        ORDER BY tbl_name, name`,
  )
  for (const index of indexes) db.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`)
  // Into an empty project the writes only append, and a page once full is not read again: a large
  // cache would only hold dirty pages that the rebuild's small one then has to write out first.
  const counted = () =>
    withCountsRebuiltAfter(db, () => withSubmissionCountsRebuiltAfter(db, write))
  const result =
    existing === 0
      ? withPragmas(db, { cache_size: REBUILD_PRAGMAS.cache_size }, counted)
      : counted()
  withPragmas(db, REBUILD_PRAGMAS, () => {
    indexes.forEach((index, built) => {
      hooks.beforeIndex?.(built, indexes.length)
      db.exec(index.sql)
    })
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
