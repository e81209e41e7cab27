import type { Migration } from '../types'

/**
 * Change sets of a team replica that the server refused and their member took back (reverted
 * here): they and their reverts stay on this replica, so the pending work after them pushes. A
 * local project never holds a row.
 */
const migration: Migration = {
  version: 20,
  name: 'withdrawn-change-sets',
  up(db) {
    db.exec(`
      CREATE TABLE team_withdrawn (
        change_set_id INTEGER PRIMARY KEY REFERENCES change_sets(id),
        -- What the server said when it refused it.
        reason TEXT NOT NULL
      ) STRICT;
    `)
  },
}

export default migration
