import type { Migration } from '../types'

/**
 * Summaries of submissions for the Today page and the dashboard's submissions per day, so they
 * read a few summary rows instead of every annotation or submission of their range:
 *
 * - `submission_shapes`: submissions with annotations by (day, worker, dimensions filled as a mask
 *   with bit d set for dimension d) — their count, annotations, minimal share and profile;
 * - `submission_work`: the same submissions by (day, worker, work seconds) — their median;
 * - `submission_days`: every submission by day (the dashboard's chart).
 *
 * As migration 017's summary, kept exact by triggers that append moves to
 * `submission_count_moves` (readers add the log; the next change set folds it in). A move with
 * mask 0 is a submission row's own (a submission with annotations always has a mask). Only inserts
 * and deletes move them: a submission's worker and times, and an annotation's dimension, are never
 * changed after import, and a rating or a flag moves nothing here. Bulk writes drop the triggers
 * and count afresh (submissionCounts.ts).
 *
 * Keys are never NULL: no worker is 0, no time is day -9007199254740991, and no accept time is
 * work -9007199254740991. A day is the floor of `submitted_at / 86400` (UTC).
 *
 * Written out here rather than imported: a migration must keep doing what it did when it shipped.
 */
const NONE = -9007199254740991
const day = (row: string) =>
  `CASE WHEN ${row}.submitted_at IS NULL THEN ${NONE} ` +
  `WHEN ${row}.submitted_at >= 0 THEN ${row}.submitted_at / 86400 ` +
  `ELSE (${row}.submitted_at + 1) / 86400 - 1 END`
const work = (row: string) => `IFNULL(${row}.submitted_at - ${row}.accepted_at, ${NONE})`
const key = (row: string) => `${day(row)}, IFNULL(${row}.worker_id, 0)`

const MOVES = 'INSERT INTO submission_count_moves (day, worker_id, mask, work_seconds, n)'
/** The mask of the submission's other annotations (NULL when it has none). */
const others = (row: string) =>
  `(SELECT sum(1 << dimension) AS mask FROM annotations
     WHERE id BETWEEN ${row}.submission_id * 16 AND ${row}.submission_id * 16 + 15 AND id <> ${row}.id) m`

export const SUBMISSION_COUNT_TRIGGERS = `
  CREATE TRIGGER submission_counts_insert AFTER INSERT ON submissions BEGIN
    ${MOVES} VALUES (${key('new')}, 0, ${work('new')}, 1);
  END;
  CREATE TRIGGER submission_counts_delete AFTER DELETE ON submissions BEGIN
    ${MOVES} VALUES (${key('old')}, 0, ${work('old')}, -1);
  END;
  CREATE TRIGGER submission_shapes_insert AFTER INSERT ON annotations BEGIN
    ${MOVES}
      SELECT ${key('s')}, m.mask, ${work('s')}, -1 FROM submissions s, ${others('new')}
        WHERE s.id = new.submission_id AND m.mask IS NOT NULL
      UNION ALL
      SELECT ${key('s')}, IFNULL(m.mask, 0) | (1 << new.dimension), ${work('s')}, 1
        FROM submissions s, ${others('new')} WHERE s.id = new.submission_id;
  END;
  CREATE TRIGGER submission_shapes_delete AFTER DELETE ON annotations BEGIN
    ${MOVES}
      SELECT ${key('s')}, IFNULL(m.mask, 0) | (1 << old.dimension), ${work('s')}, -1
        FROM submissions s, ${others('old')} WHERE s.id = old.submission_id
      UNION ALL
      SELECT ${key('s')}, m.mask, ${work('s')}, 1 FROM submissions s, ${others('old')}
        WHERE s.id = old.submission_id AND m.mask IS NOT NULL;
  END;`

/**
 * Every submission counted afresh (the migration, and bulk writes after dropping the triggers):
 * each submission's mask is read by a seek of its annotations' id range.
 */
export const SUBMISSION_COUNTS_REBUILD = `
  DELETE FROM submission_count_moves;
  DELETE FROM submission_shapes;
  DELETE FROM submission_work;
  DELETE FROM submission_days;
  CREATE TEMP TABLE submission_masks_rebuilt (day INTEGER, worker_id INTEGER, mask INTEGER,
    work_seconds INTEGER);
  INSERT INTO temp.submission_masks_rebuilt
    SELECT ${key('s')}, (SELECT sum(1 << a.dimension) FROM annotations a
        WHERE a.id BETWEEN s.id * 16 AND s.id * 16 + 15), ${work('s')}
    FROM submissions s;
  INSERT INTO submission_days (day, n)
    SELECT day, count(*) FROM temp.submission_masks_rebuilt GROUP BY 1;
  INSERT INTO submission_shapes (day, worker_id, mask, n)
    SELECT day, worker_id, mask, count(*) FROM temp.submission_masks_rebuilt
    WHERE mask IS NOT NULL GROUP BY 1, 2, 3;
  INSERT INTO submission_work (day, worker_id, work_seconds, n)
    SELECT day, worker_id, work_seconds, count(*) FROM temp.submission_masks_rebuilt
    WHERE mask IS NOT NULL GROUP BY 1, 2, 3;
  DROP TABLE temp.submission_masks_rebuilt;`

const migration: Migration = {
  version: 18,
  name: 'submission-counts',
  up(db) {
    db.exec(`
      CREATE TABLE submission_shapes (
        day INTEGER NOT NULL,
        worker_id INTEGER NOT NULL,
        mask INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (day, worker_id, mask)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE submission_work (
        day INTEGER NOT NULL,
        worker_id INTEGER NOT NULL,
        work_seconds INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (day, worker_id, work_seconds)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE submission_days (
        day INTEGER NOT NULL PRIMARY KEY,
        n INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE submission_count_moves (
        day INTEGER NOT NULL,
        worker_id INTEGER NOT NULL,
        mask INTEGER NOT NULL,
        work_seconds INTEGER NOT NULL,
        n INTEGER NOT NULL
      ) STRICT;
      ${SUBMISSION_COUNTS_REBUILD}
      ${SUBMISSION_COUNT_TRIGGERS}
    `)
  },
}

export default migration
