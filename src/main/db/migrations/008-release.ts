import type { Migration } from '../types'

/**
 * Releases: the pseudonymous worker ids a release may print instead of MTurk ids (a stable map
 * kept in the project and never exported, as the public GLUCOSE release did), and a record of
 * every release written (its manifest).
 */
const migration: Migration = {
  version: 8,
  name: 'release',
  up(db) {
    db.exec(`
      CREATE TABLE worker_pseudonyms (
        worker_id INTEGER PRIMARY KEY REFERENCES workers(id),
        pseudonym INTEGER NOT NULL UNIQUE
      ) STRICT;

      CREATE TABLE exports (
        id INTEGER PRIMARY KEY,
        created_at INTEGER NOT NULL,
        author TEXT NOT NULL,
        folder TEXT NOT NULL,
        manifest TEXT NOT NULL
      ) STRICT;
    `)
  },
}

export default migration
