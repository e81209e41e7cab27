import type Database from 'better-sqlite3'

/**
 * The types the connection and the migrations share, in a module of their own so that neither
 * imports the other for them.
 */

/** A connection to a project file. */
export type Db = Database.Database

/** One step of the project file's schema, run once in order (`PRAGMA user_version`). */
export interface Migration {
  version: number
  name: string
  up(db: Db): void
}
