import type { Db, Migration } from '../types'

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
/**
 * The mask of the other annotations of `row`'s part of its submission (the same day and worker;
 * NULL when it has none).
 */
const others = (row: string) =>
  `(SELECT sum(1 << o.dimension) AS mask FROM annotations o
     WHERE o.id BETWEEN ${row}.submission_id * 16 AND ${row}.submission_id * 16 + 15
       AND o.id <> ${row}.id AND o.worker_id IS ${row}.worker_id AND ${day('o')} = ${day(row)}) m`

export const SUBMISSION_COUNT_TRIGGERS = `
  CREATE TRIGGER submission_counts_insert AFTER INSERT ON submissions BEGIN
    ${MOVES} VALUES (${key('new')}, 0, ${work('new')}, 1);
  END;
  CREATE TRIGGER submission_counts_delete AFTER DELETE ON submissions BEGIN
    ${MOVES} VALUES (${key('old')}, 0, ${work('old')}, -1);
  END;
  CREATE TRIGGER submission_shapes_insert AFTER INSERT ON annotations BEGIN
    ${MOVES}
      SELECT ${key('new')}, m.mask, ${work('s')}, -1 FROM submissions s, ${others('new')}
        WHERE s.id = new.submission_id AND m.mask IS NOT NULL
      UNION ALL
      SELECT ${key('new')}, IFNULL(m.mask, 0) | (1 << new.dimension), ${work('s')}, 1
        FROM submissions s, ${others('new')} WHERE s.id = new.submission_id;
  END;
  CREATE TRIGGER submission_shapes_delete AFTER DELETE ON annotations BEGIN
    ${MOVES}
      SELECT ${key('old')}, IFNULL(m.mask, 0) | (1 << old.dimension), ${work('s')}, -1
        FROM submissions s, ${others('old')} WHERE s.id = old.submission_id
      UNION ALL
      SELECT ${key('old')}, m.mask, ${work('s')}, 1 FROM submissions s, ${others('old')}
        WHERE s.id = old.submission_id AND m.mask IS NOT NULL;
  END;`

/** Rows per chunk of the rebuild: each chunk's parts are grouped (sorted) on their own. */
const CHUNK = 65_536

/**
 * The first key of `table` at least `from` places after `key` (exclusive of `key`), or null.
 * Chunks of annotations end on a submission's boundary (ids 16 apart), so no part spans two.
 */
function chunkEnd(db: Db, table: 'annotations' | 'submissions', from: number): number | null {
  const next = db
    .prepare(`SELECT id FROM ${table} WHERE id >= ? ORDER BY id LIMIT 1 OFFSET ${CHUNK}`)
    .pluck()
    .get(from) as number | undefined
  if (next === undefined) return null
  return table === 'annotations' ? Math.floor(next / 16) * 16 : next
}

/** Runs `statements` with each chunk [from, until) of `table`'s keys, in order. */
function inChunks(db: Db, table: 'annotations' | 'submissions', statements: string[]): void {
  const prepared = statements.map((text) => db.prepare(text))
  let from = -Number.MAX_SAFE_INTEGER
  for (;;) {
    const until = chunkEnd(db, table, from)
    for (const statement of prepared)
      statement.run(
        ...(statement.source.includes('?') ? [from, until ?? Number.MAX_SAFE_INTEGER] : []),
      )
    if (until === null) return
    from = until
  }
}

const upsert = 'ON CONFLICT DO UPDATE SET n = n + excluded.n'

/**
 * Every submission counted afresh (the migration, and bulk writes after dropping the triggers).
 * A part of a submission is its annotations of one day and worker (annotations hold copies of the
 * submission's, which a row merged into it may not share). Counted a chunk of ids at a time, each
 * grouped on its own and added to the summaries, so the sort holds one chunk, not the project.
 */
export function rebuildSubmissionCounts(db: Db): void {
  db.exec(`
    DELETE FROM submission_count_moves;
    DELETE FROM submission_shapes;
    DELETE FROM submission_work;
    DELETE FROM submission_days;
    DROP TABLE IF EXISTS temp.submission_parts;
    CREATE TEMP TABLE submission_parts (day INTEGER, worker_id INTEGER, mask INTEGER,
      work_seconds INTEGER);`)
  inChunks(db, 'annotations', [
    `INSERT INTO temp.submission_parts
       SELECT p.day, p.worker_id, p.mask, ${work('s')} FROM (
         SELECT a.id >> 4 AS submission_id, ${day('a')} AS day,
           IFNULL(a.worker_id, 0) AS worker_id, sum(1 << a.dimension) AS mask
         FROM annotations a WHERE a.id >= ? AND a.id < ? GROUP BY 1, 2, 3) p
       JOIN submissions s ON s.id = p.submission_id`,
    `INSERT INTO submission_shapes (day, worker_id, mask, n)
       SELECT day, worker_id, mask, count(*) FROM temp.submission_parts GROUP BY 1, 2, 3 ${upsert}`,
    `INSERT INTO submission_work (day, worker_id, work_seconds, n)
       SELECT day, worker_id, work_seconds, count(*) FROM temp.submission_parts GROUP BY 1, 2, 3
       ${upsert}`,
    'DELETE FROM temp.submission_parts',
  ])
  db.exec('DROP TABLE temp.submission_parts')
  inChunks(db, 'submissions', [
    `INSERT INTO submission_days (day, n)
       SELECT ${day('s')}, count(*) FROM submissions s WHERE s.id >= ? AND s.id < ? GROUP BY 1
       ${upsert}`,
  ])
}

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
    `)
    rebuildSubmissionCounts(db)
    db.exec(SUBMISSION_COUNT_TRIGGERS)
  },
}

export default migration
