/**
 * The summary of `annotations` that totals are read from (migration 016): annotations counted by
 * (worker, day, dimension, effective rating, flags), kept exact by triggers on every write, and
 * rebuilt in one pass after a bulk write that dropped them (decisions.md, "Counts from a summary").
 */
import { ANNOTATION_COUNTS_REBUILD } from '../migrations/017-annotation-counts'
import type { Db } from '../connection'
import { all, pluck, run } from '../connection'
import { type SqlFragment, sql } from '../sql'
import type { Constraints } from './review/filter'

/** The key of an annotation without a time (see the migration). */
const NO_DAY = -9007199254740991
/** The key of an unrated annotation: +Infinity, which no rating is. */
const UNRATED = sql.raw('9e999')

/** Whether every field of `c` is a column of the summary (no text, story or id filters). */
export function countable(c: Constraints): boolean {
  return (
    !c.none &&
    c.stories === undefined &&
    c.sentence === undefined &&
    c.fts === undefined &&
    c.annotationIds === undefined &&
    c.submissionIds === undefined
  )
}

/** The summary's test of `c`'s fields (the same meaning as reviewFilter.ts's row tests). */
function summaryTests(c: Constraints): SqlFragment {
  const tests: SqlFragment[] = []
  if (c.workers) tests.push(sql`worker_id IN ${sql.list(c.workers)}`)
  if (c.dimensions) tests.push(sql`dimension IN ${sql.list(c.dimensions)}`)
  if (c.ratings) {
    const keys = c.ratings.values.map((v) => sql`${v}`)
    if (c.ratings.unrated) keys.push(UNRATED)
    tests.push(keys.length ? sql`rating IN (${sql.join(keys)})` : sql`0`)
  }
  // A day is whole: filter bounds are day starts, so comparing days is exact.
  if (c.from !== undefined || c.until !== undefined) tests.push(sql`day <> ${NO_DAY}`)
  if (c.from !== undefined) tests.push(sql`day >= ${Math.floor(c.from / 86_400)}`)
  if (c.until !== undefined) tests.push(sql`day < ${Math.ceil(c.until / 86_400)}`)
  if (c.flagMask !== undefined) tests.push(sql`(flags & ${c.flagMask}) <> 0`)
  else if (c.flagged) tests.push(sql`flags > 0`)
  return tests.length ? sql.join(tests, ' AND ') : sql`1`
}

/**
 * The statement that counts `c` from the summary and the moves not yet folded in (`countable(c)`
 * must hold). Without a worker the small table serves; with one, the large one seeks its workers.
 */
export function summaryCountStatement(c: Constraints): SqlFragment {
  const table = c.workers ? sql`annotation_counts` : sql`annotation_day_counts`
  const tests = summaryTests(c)
  return sql`SELECT IFNULL((SELECT sum(n) FROM ${table} WHERE ${tests}), 0)
    + IFNULL((SELECT sum(n) FROM annotation_count_moves WHERE ${tests}), 0)`
}

/**
 * Adds the logged moves to the summaries and empties the log. Run at the start of every change
 * set, so the log holds at most the last write's moves; inside the caller's transaction.
 */
export function foldCountMoves(db: Db): void {
  // A project written before migration 016 (tests build them) has no log.
  const logged = sql`SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'annotation_count_moves')`
  if (pluck<number>(db, logged) !== 1) return
  if (pluck<number>(db, sql`SELECT EXISTS (SELECT 1 FROM annotation_count_moves)`) !== 1) return
  db.exec(FOLD)
}

const FOLD = `
  INSERT INTO annotation_counts (worker_id, day, dimension, rating, flags, n)
    SELECT worker_id, day, dimension, rating, flags, sum(n) FROM annotation_count_moves WHERE true
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  INSERT INTO annotation_day_counts (day, dimension, rating, flags, n)
    SELECT day, dimension, rating, flags, sum(n) FROM annotation_count_moves WHERE true
    GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  INSERT INTO annotation_worker_dimensions (worker_id, dimension, n)
    SELECT worker_id, dimension, sum(n) FROM annotation_count_moves WHERE true
    GROUP BY 1, 2 HAVING sum(n) <> 0
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  DELETE FROM annotation_count_moves;`

export function countFromSummary(db: Db, c: Constraints): number {
  return pluck<number>(db, summaryCountStatement(c)) ?? 0
}

/** A summary rating as the app has it (null for unrated). */
export function ratingOf(key: number): number | null {
  return key === Infinity ? null : key
}

export const SUMMARY_NO_DAY = NO_DAY

/**
 * A summary with the moves not yet folded in, as one relation (rows may repeat a key: sum `n`).
 * `worker`: (worker_id, day, dimension, rating, flags, n); `day`: the same without the worker.
 */
export function summaryRelation(by: 'worker' | 'day'): SqlFragment {
  return by === 'worker'
    ? sql`(SELECT worker_id, day, dimension, rating, flags, n FROM annotation_counts
        UNION ALL SELECT worker_id, day, dimension, rating, flags, n FROM annotation_count_moves)`
    : sql`(SELECT day, dimension, rating, flags, n FROM annotation_day_counts
        UNION ALL SELECT day, dimension, rating, flags, n FROM annotation_count_moves)`
}

const UPDATE_TRIGGER = 'annotation_counts_update'

export const COUNT_TRIGGERS = [
  'annotation_counts_insert',
  'annotation_counts_delete',
  UPDATE_TRIGGER,
]

/**
 * Runs a bulk write with the summary's triggers dropped, then counts every annotation afresh: one
 * pass over the table costs less than a trigger per row once a write touches a good part of it.
 * Inside the caller's transaction (DDL is transactional), so a failure restores the triggers.
 */
export function withCountsRebuiltAfter<T>(db: Db, write: () => T): T {
  if (!db.inTransaction) throw new Error('the summary is rebuilt only inside a transaction')
  const triggers = all<{ sql: string }>(
    db,
    sql`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name IN ${sql.list(COUNT_TRIGGERS)}`,
  )
  // Already set aside by an enclosing bulk write (a join), which counts once when it ends.
  if (triggers.length === 0) return write()
  for (const name of COUNT_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${name}`)
  const result = write()
  db.exec(ANNOTATION_COUNTS_REBUILD)
  for (const trigger of triggers) db.exec(trigger.sql)
  return result
}

/** The summary's day of an annotation's `submitted_at` (the migration's, for a bare row). */
const DAY_OF = sql.raw(
  `CASE WHEN submitted_at IS NULL THEN ${NO_DAY} WHEN submitted_at >= 0 THEN submitted_at / 86400 ` +
    `ELSE (submitted_at + 1) / 86400 - 1 END`,
)

/** The annotations `where` selects, about to take the rating `to`, and nothing else changing. */
export interface RatingMove {
  where: SqlFragment
  to: number | null
}

/**
 * Runs `write`, which sets the rating of the rows of each move (a WHERE over `annotations`) to its
 * value and changes no other column the summary keys, with the summary's update trigger set aside
 * and the moves logged beforehand by one grouped statement each: a trigger per row cost a worker
 * rating of 20,000 annotations more than the rest of its write.
 */
export function withRatingMovesGrouped<T>(db: Db, moves: readonly RatingMove[], write: () => T): T {
  // Outside a transaction the trigger could not be set aside safely: it logs row by row.
  if (!db.inTransaction) return write()
  const trigger = pluck<string>(
    db,
    sql`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ${UPDATE_TRIGGER}`,
  )
  // Set aside by an enclosing bulk write, which counts afresh when it ends.
  if (trigger === undefined) return write()
  for (const move of moves) {
    const to = move.to === null ? UNRATED : sql`${move.to}`
    run(
      db,
      sql`WITH moved AS MATERIALIZED (
            SELECT IFNULL(worker_id, 0) AS worker_id, ${DAY_OF} AS day, dimension,
              IFNULL(rating, ${UNRATED}) AS rating, flags, count(*) AS n
            FROM annotations WHERE ${move.where} AND rating IS NOT ${move.to} GROUP BY 1, 2, 3, 4, 5)
          INSERT INTO annotation_count_moves (worker_id, day, dimension, rating, flags, n)
          SELECT worker_id, day, dimension, rating, flags, -n FROM moved
          UNION ALL SELECT worker_id, day, dimension, ${to}, flags, n FROM moved`,
    )
  }
  db.exec(`DROP TRIGGER ${UPDATE_TRIGGER}`)
  const result = write()
  db.exec(trigger)
  return result
}
