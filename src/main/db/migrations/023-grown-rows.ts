import type { Migration } from '../types'

/**
 * The rows of a collection's shared tables that an import found there already and added to or
 * rewrote (a ProtoQA question given more raw answers, a CROWDAQ exam imported again): recorded
 * when the import is made, so a team push tells them from rows the import brought and sends
 * them to be updated, not inserted. The key is the row's key as a JSON array.
 */
const migration: Migration = {
  version: 23,
  name: 'grown-rows',
  up(db) {
    db.exec(`
      CREATE TABLE grown_rows (
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        table_name TEXT NOT NULL,
        row_key TEXT NOT NULL,
        PRIMARY KEY (change_set_id, table_name, row_key)
      ) STRICT;
    `)
  },
}

export default migration
