import type { Migration } from '../types'

/**
 * The review grid: covering indexes so every filter combination and every index-backed sort reads
 * one index range (src/main/db/queries/review/indexes.ts); a trigram index of the sentences for
 * "sentence contains" (a LIKE scan reads every sentence, and its cost grows with the project);
 * and the named views reviewers save.
 *
 * `sentence_search` is contentless: rowid = story_id << 8 | idx names the sentence, the text
 * stays in `sentences`. A trigger keeps it in step with the importers' inserts.
 *
 * Written out here rather than imported from reviewIndexes.ts: a migration must keep doing what it
 * did when it shipped (a test checks the two agree).
 */
const migration: Migration = {
  version: 4,
  name: 'review',
  up(db) {
    db.exec(`
      CREATE INDEX ann_worker ON annotations(worker_id, submitted_at, dimension, flags, story_id, sentence_index);
      CREATE INDEX ann_rating ON annotations(rating, worker_id, submitted_at, dimension, flags, story_id, sentence_index);
      CREATE INDEX ann_dimension ON annotations(dimension, worker_id, submitted_at, flags, story_id, sentence_index);
      CREATE INDEX ann_date ON annotations(submitted_at, dimension, worker_id, flags, story_id, sentence_index);
      CREATE INDEX ann_story ON annotations(story_id, sentence_index, dimension, worker_id, submitted_at, flags);
      CREATE INDEX ann_flagged ON annotations(dimension, rating, worker_id, submitted_at, story_id, sentence_index, flags) WHERE flags > 0;

      CREATE VIRTUAL TABLE sentence_search USING fts5(text, content = '', tokenize = 'trigram');
      INSERT INTO sentence_search (rowid, text)
        SELECT (story_id << 8) + idx, text FROM sentences WHERE idx BETWEEN 0 AND 255;
      CREATE TRIGGER sentences_search AFTER INSERT ON sentences
        WHEN new.idx BETWEEN 0 AND 255
      BEGIN
        INSERT INTO sentence_search (rowid, text) VALUES ((new.story_id << 8) + new.idx, new.text);
      END;

      CREATE TABLE review_views (
        name TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        saved_at INTEGER NOT NULL
      ) STRICT;
    `)
  },
}

export default migration
