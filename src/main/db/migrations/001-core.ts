import type { Migration } from '../types'

/**
 * The GLUCOSE core: stories and their sentences, workers, submissions (one per assignment) and
 * annotations (one per filled dimension). Filter columns are copied onto `annotations` so the
 * review grid filters and counts a million rows from one narrow table; the long texts live in
 * `annotation_texts`, indexed for full-text search.
 */
const migration: Migration = {
  version: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE change_sets (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('import', 'manual', 'bulk', 'policy', 'revert', 'mturk')),
        author TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        description TEXT NOT NULL,
        reverts INTEGER REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX change_sets_reverts ON change_sets(reverts);

      CREATE TABLE source_files (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        format TEXT NOT NULL,
        year INTEGER,
        imported_at INTEGER NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        records INTEGER NOT NULL,
        submissions_added INTEGER NOT NULL,
        annotations_added INTEGER NOT NULL,
        warnings TEXT NOT NULL
      ) STRICT;

      CREATE TABLE workers (
        id INTEGER PRIMARY KEY,
        external_id TEXT NOT NULL UNIQUE
      ) STRICT;

      CREATE TABLE stories (
        id INTEGER PRIMARY KEY,
        external_id TEXT NOT NULL UNIQUE,
        text TEXT NOT NULL
      ) STRICT;

      CREATE TABLE sentences (
        story_id INTEGER NOT NULL REFERENCES stories(id),
        idx INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (story_id, idx)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE submissions (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        assignment_id TEXT UNIQUE,
        worker_id INTEGER REFERENCES workers(id),
        worker_ref TEXT,
        -- NULL only for a pulled MTurk answer that names no story (kept raw, flagged, no annotations).
        story_id INTEGER REFERENCES stories(id),
        sentence_index INTEGER NOT NULL,
        submitted_at INTEGER,
        accepted_at INTEGER,
        file_rating REAL,
        declared_filled INTEGER,
        source_file_id INTEGER REFERENCES source_files(id),
        source_line INTEGER,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        flags INTEGER NOT NULL DEFAULT 0,
        raw TEXT
      ) STRICT;
      CREATE INDEX submissions_worker ON submissions(worker_id, submitted_at);
      CREATE INDEX submissions_story ON submissions(story_id, sentence_index);

      -- An annotation's id is its submission's id × 16 + its dimension: one submission's
      -- annotations are one id range, and (submission, dimension) is unique without an index.
      CREATE TABLE annotations (
        id INTEGER PRIMARY KEY,
        submission_id INTEGER NOT NULL REFERENCES submissions(id),
        dimension INTEGER NOT NULL CHECK (dimension BETWEEN 1 AND 10),
        -- Copies of the submission's columns (never changed after import), for one-table filters.
        worker_id INTEGER,
        story_id INTEGER NOT NULL,
        sentence_index INTEGER NOT NULL,
        submitted_at INTEGER,
        file_rating REAL,
        -- The effective rating and where it comes from (0 unrated, 1 worker timeline, 2 item rating).
        rating REAL,
        rating_source INTEGER NOT NULL DEFAULT 0,
        flags INTEGER NOT NULL DEFAULT 0,
        CHECK (id = submission_id * 16 + dimension)
      ) STRICT;

      CREATE TABLE annotation_texts (
        annotation_id INTEGER PRIMARY KEY REFERENCES annotations(id),
        specific_nl TEXT NOT NULL,
        specific_structured TEXT,
        general_nl TEXT NOT NULL,
        general_structured TEXT
      ) STRICT;

      -- Annotations written but not yet in annotation_search: an import commits its rows first and
      -- indexes their text right after, in small transactions (see src/main/search).
      CREATE TABLE search_backlog (
        annotation_id INTEGER PRIMARY KEY
      ) STRICT;
      CREATE VIRTUAL TABLE annotation_search USING fts5(
        specific_nl, general_nl, content = 'annotation_texts', content_rowid = 'annotation_id'
      );
      CREATE VIRTUAL TABLE story_search USING fts5(
        text, content = 'stories', content_rowid = 'id'
      );
    `)
  },
}

export default migration
