import type { Migration } from '../types'

/**
 * Daily triage and spot-check audits. A triage queue is a seeded sample of each worker's new
 * submissions for a range of days; its marks (good / needs work / bad, per annotation) and queued
 * feedback are kept as the reviewer goes, so a queue resumes after a restart. An audit is a seeded
 * sample of a query's annotations, judged yes / no / skip; drawing more appends items in the same
 * seeded order, so an audit never repeats an item. Neither touches ratings: a rating given from
 * the queue goes through the ratings machinery as any other.
 */
const migration: Migration = {
  version: 10,
  name: 'triage',
  up(db) {
    db.exec(`
      CREATE TABLE triage_queues (
        id INTEGER PRIMARY KEY,
        -- Days YYYY-MM-DD (UTC), inclusive.
        from_day TEXT NOT NULL,
        to_day TEXT NOT NULL,
        share REAL NOT NULL CHECK (share > 0 AND share <= 1),
        seed INTEGER NOT NULL,
        author TEXT NOT NULL,
        -- Epoch ms.
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      ) STRICT;

      CREATE TABLE triage_items (
        queue_id INTEGER NOT NULL REFERENCES triage_queues(id),
        position INTEGER NOT NULL,
        submission_id INTEGER NOT NULL REFERENCES submissions(id),
        -- A message for the worker, queued here and sent through the worker actions.
        feedback TEXT NOT NULL DEFAULT '',
        -- Epoch ms when the reviewer moved past it; NULL while unreviewed.
        reviewed_at INTEGER,
        PRIMARY KEY (queue_id, position)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE triage_marks (
        queue_id INTEGER NOT NULL REFERENCES triage_queues(id),
        annotation_id INTEGER NOT NULL REFERENCES annotations(id),
        mark TEXT NOT NULL CHECK (mark IN ('good', 'needs-work', 'bad')),
        note TEXT NOT NULL DEFAULT '',
        -- Epoch ms.
        marked_at INTEGER NOT NULL,
        PRIMARY KEY (queue_id, annotation_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE audits (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        -- The query sampled (JSON, the review filter vocabulary).
        filter TEXT NOT NULL,
        seed INTEGER NOT NULL,
        -- "Keep sampling until the interval is within ±target_margin"; NULL: a fixed sample.
        target_margin REAL,
        author TEXT NOT NULL,
        -- Epoch ms.
        created_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE audit_items (
        audit_id INTEGER NOT NULL REFERENCES audits(id),
        position INTEGER NOT NULL,
        annotation_id INTEGER NOT NULL REFERENCES annotations(id),
        verdict TEXT CHECK (verdict IN ('yes', 'no', 'skip')),
        note TEXT NOT NULL DEFAULT '',
        -- Epoch ms.
        judged_at INTEGER,
        PRIMARY KEY (audit_id, position),
        UNIQUE (audit_id, annotation_id)
      ) STRICT, WITHOUT ROWID;
    `)
  },
}

export default migration
