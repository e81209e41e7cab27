import type { Migration } from './index'

/**
 * The review grid: covering indexes so every filter combination and every index-backed sort reads
 * one index range (see src/main/db/queries/reviewIndexes.ts and docs/benchmarks.md), and the
 * named views reviewers save.
 *
 * Indexes that hold `rating` lead with, or soon reach, `worker_id`: a worker rating change then
 * touches one run of entries per index instead of pages all over it.
 */
const migration: Migration = {
  version: 4,
  name: 'review',
  up(db) {
    db.exec(`
      CREATE INDEX ann_worker ON annotations(worker_id, submitted_at, dimension, rating, flags);
      CREATE INDEX ann_rating ON annotations(rating, worker_id, submitted_at, dimension, flags);
      CREATE INDEX ann_dimension ON annotations(dimension, rating, worker_id, submitted_at, flags);
      CREATE INDEX ann_date ON annotations(submitted_at, dimension, worker_id, flags);
      CREATE INDEX ann_story ON annotations(story_id, sentence_index, dimension, worker_id, submitted_at, flags);
      CREATE INDEX ann_flagged ON annotations(dimension, rating, worker_id, submitted_at) WHERE flags > 0;

      CREATE TABLE review_views (
        name TEXT PRIMARY KEY,
        body TEXT NOT NULL,
        saved_at INTEGER NOT NULL
      ) STRICT;
    `)
  },
}

export default migration
