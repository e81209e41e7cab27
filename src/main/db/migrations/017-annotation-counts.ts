import type { Migration } from '../types'

/**
 * `annotation_counts` counts annotations by (worker, day, dimension, effective rating, flags), and
 * `annotation_day_counts` the same without the worker (a few thousand rows), and
 * `annotation_worker_dimensions` by worker and dimension alone (the dashboard's map), so the totals of the
 * review grid's non-text filters and the dashboard's aggregates sum summary rows instead of
 * scanning an index. Triggers log every change of those columns in `annotation_count_moves` (one
 * append per row: a trigger that updated the summaries in place cost a worker rating of 20,000
 * annotations twice its time); readers add the log to the summaries, and the next change set
 * folds it in. Bulk writes drop the triggers and count afresh afterwards (annotationCounts.ts).
 *
 * Keys are never NULL (a WITHOUT ROWID key cannot be): no worker is 0, no time is day
 * -9007199254740991, unrated is +Infinity (`9e999`; ratings are finite). A day is the floor of
 * `submitted_at / 86400` (UTC), negative times included. Rows that fall to n = 0 stay.
 *
 * Written out here rather than imported: a migration must keep doing what it did when it shipped.
 */
const day = (row: string) =>
  `CASE WHEN ${row}.submitted_at IS NULL THEN -9007199254740991 ` +
  `WHEN ${row}.submitted_at >= 0 THEN ${row}.submitted_at / 86400 ` +
  `ELSE (${row}.submitted_at + 1) / 86400 - 1 END`

/** The worker summary's key columns, and the key of a row of `annotations`. */
const BY_WORKER = {
  columns: 'worker_id, day, dimension, rating, flags',
  key: (row: string) =>
    `IFNULL(${row}.worker_id, 0), ${day(row)}, ${row}.dimension, IFNULL(${row}.rating, 9e999), ${row}.flags`,
}
const BY_DAY_COLUMNS = 'day, dimension, rating, flags'

const move = (row: string, n: number) => `(${BY_WORKER.key(row)}, ${n})`
const MOVES = `INSERT INTO annotation_count_moves (${BY_WORKER.columns}, n) VALUES`

export const ANNOTATION_COUNT_TRIGGERS = `
  CREATE TRIGGER annotation_counts_insert AFTER INSERT ON annotations BEGIN
    ${MOVES} ${move('new', 1)};
  END;
  CREATE TRIGGER annotation_counts_delete AFTER DELETE ON annotations BEGIN
    ${MOVES} ${move('old', -1)};
  END;
  CREATE TRIGGER annotation_counts_update
    AFTER UPDATE OF worker_id, submitted_at, dimension, rating, flags ON annotations
    WHEN old.rating IS NOT new.rating OR old.flags IS NOT new.flags
      OR old.worker_id IS NOT new.worker_id OR old.submitted_at IS NOT new.submitted_at
      OR old.dimension IS NOT new.dimension
  BEGIN
    ${MOVES} ${move('old', -1)}, ${move('new', 1)};
  END;`

/**
 * Every annotation counted afresh (the migration, and bulk writes after dropping the triggers):
 * one pass over the table; the day summary is summed from the worker summary.
 */
export const ANNOTATION_COUNTS_REBUILD = `
  DELETE FROM annotation_count_moves;
  DELETE FROM annotation_counts;
  DELETE FROM annotation_day_counts;
  DELETE FROM annotation_worker_dimensions;
  INSERT INTO annotation_counts (${BY_WORKER.columns}, n)
    SELECT ${BY_WORKER.key('a')}, count(*) FROM annotations a GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO annotation_day_counts (${BY_DAY_COLUMNS}, n)
    SELECT day, dimension, rating, flags, sum(n) FROM annotation_counts GROUP BY 1, 2, 3, 4;
  INSERT INTO annotation_worker_dimensions (worker_id, dimension, n)
    SELECT worker_id, dimension, sum(n) FROM annotation_counts GROUP BY 1, 2;`

const migration: Migration = {
  version: 17,
  name: 'annotation-counts',
  up(db) {
    db.exec(`
      CREATE TABLE annotation_counts (
        worker_id INTEGER NOT NULL,
        day INTEGER NOT NULL,
        dimension INTEGER NOT NULL,
        rating REAL NOT NULL,
        flags INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (worker_id, day, dimension, rating, flags)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE annotation_day_counts (
        day INTEGER NOT NULL,
        dimension INTEGER NOT NULL,
        rating REAL NOT NULL,
        flags INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (day, dimension, rating, flags)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE annotation_worker_dimensions (
        worker_id INTEGER NOT NULL,
        dimension INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (worker_id, dimension)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE annotation_count_moves (
        worker_id INTEGER NOT NULL,
        day INTEGER NOT NULL,
        dimension INTEGER NOT NULL,
        rating REAL NOT NULL,
        flags INTEGER NOT NULL,
        n INTEGER NOT NULL
      ) STRICT;
      ${ANNOTATION_COUNTS_REBUILD}
      ${ANNOTATION_COUNT_TRIGGERS}
    `)
  },
}

export default migration
