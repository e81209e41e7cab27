import { type Db, pluck } from './connection'
import { sql } from './sql'

/** Changes whenever any connection has written to the file, this one included. */
export function dataVersion(db: Db): string {
  const changes = pluck<number>(db, sql`SELECT total_changes()`)
  return `${String(db.pragma('data_version', { simple: true }))}:${changes}`
}
