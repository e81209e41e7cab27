import { type Db, all, withPragmas } from '../../connection'
import { sql } from '../../sql'
import { REBUILD_PRAGMAS } from '../bulk'
import { COUNT_TRIGGERS } from '../annotationCounts'
import { ANNOTATION_COUNTS_REBUILD } from '../../migrations/017-annotation-counts'
import { rebuildSubmissionCounts } from '../../migrations/018-submission-counts'
import { SUBMISSION_COUNT_TRIGGER_NAMES } from '../submissionCounts'
import type { BulkTable, BulkValue } from '../../server/bulk'
import { collectionRowsOf } from '../../server/imports'

/**
 * The project's side of the bulk data a team shares (tables and columns from `BULK_TABLES`, an
 * allow-list): read to publish it, written to join. The change set that brought a row travels as
 * its global id.
 */
export function localColumn(column: { name: string; type: string }): string {
  return column.type === 'uid'
    ? '(SELECT c.uid FROM change_sets c WHERE c.id = x.change_set_id)'
    : `x.${column.name}`
}

export function localBulkRows(db: Db, table: BulkTable): Iterable<BulkValue[]> {
  const columns = table.columns.map(localColumn).join(', ')
  return db.prepare(`SELECT ${columns} FROM ${table.name} x`).raw().iterate() as Iterable<
    BulkValue[]
  >
}

/**
 * A table's rows of change sets the log has placed (not those waiting to push, whose rows go with
 * their push): what a server upgraded after publishing is filled with.
 */
export function publishedRows(db: Db, table: BulkTable): Iterable<BulkValue[]> {
  const own = (): string =>
    'change_set_id IN (SELECT change_set_id FROM team_change_sets WHERE seq IS NOT NULL)'
  const where = collectionRowsOf(table.name, own, '')
  if (where === null) throw new Error(`${table.name} is not a collection's table`)
  const columns = table.columns.map(localColumn).join(', ')
  return db
    .prepare(`SELECT ${columns} FROM ${table.name} x WHERE ${where}`)
    .raw()
    .iterate() as Iterable<BulkValue[]>
}

export function localBulkCount(db: Db, table: BulkTable): number {
  return db.prepare(`SELECT count(*) FROM ${table.name}`).pluck().get() as number
}

/**
 * Writes received rows in one transaction; `changeSetOf` turns a global id into a local one, in
 * the row itself (the rows are the caller's to give away).
 */
export function insertBulkRows(
  db: Db,
  table: BulkTable,
  rows: BulkValue[][],
  changeSetOf: (uid: string) => number,
): void {
  const names = table.columns.map((c) => (c.type === 'uid' ? 'change_set_id' : c.name))
  const verb = table.name === 'settings' ? 'INSERT OR REPLACE' : 'INSERT'
  const insert = db.prepare(
    `${verb} INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
  )
  const uidAt = table.columns.findIndex((c) => c.type === 'uid')
  db.transaction(() => {
    for (const row of rows) {
      if (uidAt >= 0) {
        row[uidAt] = changeSetOf(String(row[uidAt]))
        insert.run(row)
      } else {
        insert.run(row)
      }
    }
  }).immediate()
}

/**
 * The settings that came with the bulk data are recorded as the state before any change set, so
 * the log's setting changes, applied next, come after them and a revert of the first puts them
 * back.
 */
export function recordJoinedSettings(db: Db): void {
  db.transaction(() => {
    db.exec(`INSERT INTO change_entries (subject, key, value)
      SELECT 'setting', json_quote(key), value FROM settings ORDER BY key`)
  }).immediate()
}

/** What a join sets aside while it writes a new replica, put back in two steps. */
export interface JoinSetAside {
  /**
   * After the bulk tables: builds the indexes the log's change sets look rows up by; keys
   * checked again.
   */
  rebuildIndexes(): void
  /**
   * Runs a bulk rewrite of rows the file holds (the effective ratings worked out once) in one
   * transaction with no journal: the file is new and removed if the join fails, so nothing is
   * rolled back, and a journal would copy every page the rewrite touches.
   */
  rewrite<T>(write: () => T): T
  /**
   * After the log's change sets and the effective ratings: the indexes on the rating built from
   * the rows' final ratings, the annotation summary counted in one pass, every text waiting to
   * be indexed for search, the triggers put back; then WAL again, whose first checkpoint syncs
   * the file.
   */
  finish(): void
}

/**
 * For a join's bulk writes into a new replica: drops the secondary indexes of `annotations` and
 * `submissions` (built once from sorted rows afterwards, as a large import does; those on the
 * rating only after the ratings are worked out, which would otherwise rewrite them), the trigger
 * that lists new annotations as waiting for ratings (a join's ratings come from the log) and the
 * summary's triggers (a row each in its log otherwise). The rows come from the server whole and
 * in key order, so keys are not checked row by row; the file is new, so the journal is kept in
 * memory (or, for bulk rewrites, not at all) and nothing is synced until the end: a join that
 * fails removes the file.
 */
export function setAsideForJoin(db: Db): JoinSetAside {
  const saved = all<{ type: string; name: string; sql: string; rated: number }>(
    db,
    sql`SELECT s.type, s.name, s.sql, EXISTS (SELECT 1 FROM pragma_index_info(s.name) c
            WHERE c.name IN ('rating', 'rating_source')) AS rated
        FROM sqlite_schema s WHERE s.sql IS NOT NULL
          AND ((s.type = 'index' AND s.tbl_name IN ('annotations', 'submissions'))
            OR (s.type = 'trigger' AND s.name IN ${sql.list(['annotations_rating_pending', ...COUNT_TRIGGERS, ...SUBMISSION_COUNT_TRIGGER_NAMES])}))
        ORDER BY s.type, s.name`,
  )
  for (const s of saved) {
    db.exec(`DROP ${s.type === 'index' ? 'INDEX' : 'TRIGGER'} "${s.name.replace(/"/g, '""')}"`)
  }
  const build = (rated: boolean): void =>
    withPragmas(db, REBUILD_PRAGMAS, () => {
      for (const s of saved) if (s.type === 'index' && (s.rated === 1) === rated) db.exec(s.sql)
    })
  const rewrite = <T>(write: () => T): T => {
    db.pragma('journal_mode = OFF')
    try {
      return db.transaction(write).immediate()
    } finally {
      db.pragma('journal_mode = MEMORY')
    }
  }
  db.pragma('foreign_keys = OFF')
  db.pragma('journal_mode = MEMORY')
  db.pragma('synchronous = OFF')
  return {
    rebuildIndexes() {
      build(false)
      db.pragma('foreign_keys = ON')
    },
    rewrite,
    finish() {
      rewrite(() => {
        build(true)
        db.exec(`DELETE FROM rating_pending;
          INSERT OR IGNORE INTO search_backlog (annotation_id) SELECT id FROM annotations;
          INSERT INTO story_search (story_search) VALUES ('rebuild');`)
        db.exec(ANNOTATION_COUNTS_REBUILD)
        rebuildSubmissionCounts(db)
        for (const s of saved) if (s.type === 'trigger') db.exec(s.sql)
      })
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
    },
  }
}
