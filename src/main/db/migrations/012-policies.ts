import type { Migration } from '../types'

/**
 * What a policy's change set was made from: the script text and its SHA-256, the parameters and
 * the dry-run report it applied, so History can show them and a release can name them.
 */
const migration: Migration = {
  version: 12,
  name: 'policies',
  up(db) {
    db.exec(`
      CREATE TABLE policy_runs (
        change_set_id INTEGER PRIMARY KEY REFERENCES change_sets(id),
        name TEXT NOT NULL,
        file_name TEXT NOT NULL,
        script TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        -- JSON object: parameter name → value.
        params TEXT NOT NULL,
        -- JSON: the dry-run report (rules, transitions, changed, samples).
        report TEXT NOT NULL
      ) STRICT;
    `)
  },
}

export default migration
