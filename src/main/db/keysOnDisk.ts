import type Database from 'better-sqlite3'
import { openScratch } from './scratch'

/**
 * The keys a file has had so far, in a private temporary database on disk: an import's memory
 * stays flat however many rows its file has.
 */
export class KeysOnDisk {
  private readonly db: Database.Database
  private readonly insert: Database.Statement<[string]>

  constructor(cacheMb = 8) {
    this.db = openScratch('CREATE TABLE k(key TEXT PRIMARY KEY) WITHOUT ROWID', cacheMb)
    this.insert = this.db.prepare('INSERT OR IGNORE INTO k(key) VALUES (?)')
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
