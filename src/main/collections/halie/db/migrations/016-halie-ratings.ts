import type { Migration } from '../../../../db/types'

/**
 * HALIE ratings. A session or an event block is rated as a change entry (`halie.rating`, keyed by
 * the session's or the block row's id), which the revert, History and team mode of every entry
 * already handle; `halie_sessions.rating` and `halie_rows.rating` keep the item rating in force,
 * as `settings` keeps settings. Workers are the project's workers, so their dated ratings
 * (`worker_ratings`) apply at the session's start (`started_at`, epoch ms, from its raw log or
 * its metadata). `change_entries` is rebuilt for the wider subject check (see migration 015).
 */
const migration: Migration = {
  version: 16,
  name: 'halie-ratings',
  up(db) {
    db.exec(`
      CREATE TABLE change_entries_new (
        id INTEGER PRIMARY KEY,
        change_set_id INTEGER REFERENCES change_sets(id),
        subject TEXT NOT NULL CHECK (subject IN ('triage.mark', 'triage.feedback', 'triage.reviewed',
          'audit.verdict', 'setting', 'crowdaq.exam-settings', 'crowdaq.question-set',
          'halie.rating')),
        key TEXT NOT NULL,
        value TEXT
      ) STRICT;
      INSERT INTO change_entries_new (id, change_set_id, subject, key, value)
        SELECT id, change_set_id, subject, key, value FROM change_entries ORDER BY id;
      DROP TABLE change_entries;
      ALTER TABLE change_entries_new RENAME TO change_entries;
      CREATE INDEX change_entries_key ON change_entries(subject, key, id);
      CREATE INDEX change_entries_change_set ON change_entries(change_set_id);

      ALTER TABLE halie_sessions ADD COLUMN rating REAL;
      ALTER TABLE halie_sessions ADD COLUMN started_at INTEGER;
      ALTER TABLE halie_rows ADD COLUMN rating REAL;
    `)
    // Written out here, not imported: a migration must keep doing what it did when it shipped.
    db.exec(`
      UPDATE halie_sessions SET started_at = coalesce(
        (SELECT CAST(json_extract(e.line, '$.eventTimestamp') AS INTEGER)
           FROM halie_logs AS l JOIN halie_log_events AS e ON e.log_id = l.id
           WHERE l.session_id = halie_sessions.id AND json_valid(e.line)
           ORDER BY e.seq LIMIT 1),
        CASE WHEN json_valid(metadata)
          THEN CAST(json_extract(metadata, '$.start_timestamp') * 1000 AS INTEGER) END);
    `)
  },
}

export default migration
