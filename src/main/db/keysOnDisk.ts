import Database from 'better-sqlite3'
import { getDefaultNativeBinding } from './connection'

/**
 * The keys a file has had so far, in a private temporary database on disk (SQLite deletes it when
 * it is closed): an import's memory stays flat however many rows its file has. The page cache is
 * small; the file's pages stay in the system's file cache, outside the import's memory.
 */
export class KeysOnDisk {
  private readonly db: Database.Database
  private readonly insert: Database.Statement<[string]>

  constructor(cacheMb = 8) {
    const nativeBinding = getDefaultNativeBinding()
    // An empty name is a temporary database on disk, deleted when it is closed.
    this.db = new Database('', nativeBinding ? { nativeBinding } : {})
    try {
      this.db.pragma(`cache_size = ${-Math.round(cacheMb * 1024)}`)
      // Nothing to keep through a crash: no journal, no syncing.
      this.db.pragma('journal_mode = OFF')
      this.db.pragma('synchronous = OFF')
      this.db.exec('CREATE TABLE k(key TEXT PRIMARY KEY) WITHOUT ROWID')
      this.insert = this.db.prepare('INSERT OR IGNORE INTO k(key) VALUES (?)')
      // One transaction for the store's life: a commit per key would write its pages each time.
      this.db.exec('BEGIN')
    } catch (error) {
      this.db.close()
      throw error
    }
  }

  /** Adds `key`; true if the store did not have it. */
  add(key: string): boolean {
    return this.insert.run(key).changes === 1
  }

  addAll(keys: Iterable<string>): void {
    for (const key of keys) this.insert.run(key)
  }

  get open(): boolean {
    return this.db.open
  }

  /** Closes and deletes the store; again does nothing. */
  close(): void {
    if (this.db.open) this.db.close()
  }
}
