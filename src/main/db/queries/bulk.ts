import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { sql } from '../sql'

/**
 * Runs a bulk write with the secondary indexes of `annotations` dropped and rebuilt afterwards,
 * when the write is at least as large as what the table holds: building an index from sorted
 * rows is several times faster than updating it row by row. Must run inside the caller's
 * transaction, so a failure or cancel restores the indexes with everything else.
 */
export function withIndexesRebuiltAfter<T>(db: Db, expectedRows: number, write: () => T): T {
  const existing = pluck<number>(db, sql`SELECT count(*) FROM annotations`) ?? 0
  if (expectedRows < Math.max(20_000, existing)) return write()
  const indexes = all<{ name: string; sql: string }>(
    db,
    sql`SELECT name, sql FROM sqlite_schema
        WHERE type = 'index' AND tbl_name = 'annotations' AND sql IS NOT NULL`,
  )
  for (const index of indexes) db.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`)
  const result = write()
  for (const index of indexes) db.exec(index.sql)
  return result
}
