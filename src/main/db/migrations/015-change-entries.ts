import type { Migration } from '../types'

/**
 * Every write is a change set (DESIGN.md "Scale beyond one machine"). Change sets gain the kinds
 * of the writes that had none (triage, audits, settings, CROWDAQ and ProtoQA edits) and a global
 * id (`uid`), so a change set can be named on another replica; `change_sets` is rebuilt for the
 * wider kind check (SQLite's twelve steps: `migrate` runs with foreign keys off and checks them
 * before it commits).
 *
 * `change_entries` holds what such a change set set: one row per thing (a triage mark, an item's
 * feedback or review, an audit verdict, a project setting, a CROWDAQ exam's settings or question
 * set), named by `subject` and `key` (JSON), with the value it set (JSON; NULL: cleared). Rows are
 * never changed: the latest row of a key is the value in force, which the tables the app reads
 * (`triage_marks`, `audit_items`, `settings`, …) keep, as `annotations.rating` keeps ratings.
 * A revert adds rows that put back what the change replaced. Rows with no change set are the state
 * as it stood when this migration ran, so the first recorded change can be undone.
 *
 * Queues and audits record the change set that made them, and audit items the one that drew them.
 */
const migration: Migration = {
  version: 15,
  name: 'change-entries',
  up(db) {
    db.exec(`
      CREATE TABLE change_sets_new (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('import', 'manual', 'bulk', 'policy', 'revert', 'mturk',
          'triage', 'audit', 'setting', 'crowdaq', 'protoqa')),
        author TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        description TEXT NOT NULL,
        reverts INTEGER REFERENCES change_sets(id),
        -- Random, made where the change set was written: its name on every replica.
        uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16))))
      ) STRICT;
      INSERT INTO change_sets_new (id, kind, author, created_at, description, reverts)
        SELECT id, kind, author, created_at, description, reverts FROM change_sets ORDER BY id;
      DROP TABLE change_sets;
      ALTER TABLE change_sets_new RENAME TO change_sets;
      CREATE INDEX change_sets_reverts ON change_sets(reverts);
      CREATE INDEX change_sets_kind ON change_sets(kind, id);
      -- Every new change set reads the latest time (a triage mark is one: a key press).
      CREATE INDEX change_sets_created ON change_sets(created_at);

      CREATE TABLE change_entries (
        id INTEGER PRIMARY KEY,
        change_set_id INTEGER REFERENCES change_sets(id),
        subject TEXT NOT NULL CHECK (subject IN ('triage.mark', 'triage.feedback', 'triage.reviewed',
          'audit.verdict', 'setting', 'crowdaq.exam-settings', 'crowdaq.question-set')),
        key TEXT NOT NULL,
        value TEXT
      ) STRICT;
      CREATE INDEX change_entries_key ON change_entries(subject, key, id);
      CREATE INDEX change_entries_change_set ON change_entries(change_set_id);

      ALTER TABLE triage_queues ADD COLUMN change_set_id INTEGER REFERENCES change_sets(id);
      ALTER TABLE audits ADD COLUMN change_set_id INTEGER REFERENCES change_sets(id);
      ALTER TABLE audit_items ADD COLUMN change_set_id INTEGER REFERENCES change_sets(id);

      INSERT INTO change_entries (subject, key, value)
        SELECT 'triage.mark', json_object('queue', queue_id, 'annotation', annotation_id),
          json_object('mark', mark, 'note', note)
        FROM triage_marks ORDER BY queue_id, annotation_id;
      INSERT INTO change_entries (subject, key, value)
        SELECT 'triage.feedback', json_object('queue', queue_id, 'position', position),
          json_quote(feedback)
        FROM triage_items WHERE feedback != '' ORDER BY queue_id, position;
      INSERT INTO change_entries (subject, key, value)
        SELECT 'triage.reviewed', json_object('queue', queue_id, 'position', position),
          json_quote(reviewed_at)
        FROM triage_items WHERE reviewed_at IS NOT NULL ORDER BY queue_id, position;
      INSERT INTO change_entries (subject, key, value)
        SELECT 'audit.verdict', json_object('audit', audit_id, 'annotation', annotation_id),
          json_object('verdict', verdict, 'note', note)
        FROM audit_items WHERE verdict IS NOT NULL OR note != '' ORDER BY audit_id, position;
      INSERT INTO change_entries (subject, key, value)
        SELECT 'setting', json_quote(key), value FROM settings ORDER BY key;
    `)
  },
}

export default migration
