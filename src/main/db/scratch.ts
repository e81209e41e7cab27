import Database from 'better-sqlite3'
import { getDefaultNativeBinding } from './connection'

/**
 * A private temporary database on disk (SQLite deletes it when it is closed), for a job that must
 * keep more than its memory should hold. The page cache is small; the file's pages stay in the
 * system's file cache, outside the job's memory. Nothing is kept through a crash, so there is no
 * journal and no syncing, and one transaction spans its life: a commit per write would write its
 * pages each time. `schema` runs before that transaction begins.
 */
export function openScratch(schema: string, cacheMb = 8): Database.Database {
  const nativeBinding = getDefaultNativeBinding()
  // An empty name is a temporary database on disk, deleted when it is closed.
  const db = new Database('', nativeBinding ? { nativeBinding } : {})
  try {
    db.pragma(`cache_size = ${-Math.round(cacheMb * 1024)}`)
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    // Its sorts spill to files too, beside its pages.
    db.pragma('temp_store = FILE')
    db.exec(schema)
    db.exec('BEGIN')
    return db
  } catch (error) {
    db.close()
    throw error
  }
}
