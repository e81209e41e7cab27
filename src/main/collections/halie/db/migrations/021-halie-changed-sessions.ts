import type { Migration } from '../../../../db/types'

/**
 * The sessions an import changed that an earlier change set brought (a table, a raw log or
 * metadata adding figures, scores, keys or a start to a session imported before): the session's
 * row names its first change set, so this says which later ones changed it, and a team push
 * carries what they changed.
 */
const migration: Migration = {
  version: 21,
  name: 'halie-changed-sessions',
  up(db) {
    db.exec(`
      CREATE TABLE halie_changed_sessions (
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        session_id INTEGER NOT NULL REFERENCES halie_sessions(id),
        PRIMARY KEY (change_set_id, session_id)
      ) STRICT, WITHOUT ROWID;
    `)
  },
}

export default migration
