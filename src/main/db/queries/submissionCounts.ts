/**
 * The summaries of submissions that the Today page and the dashboard's submissions per day read
 * (migration 018): kept exact by triggers that log moves, folded in at every change set, rebuilt
 * in one pass after a bulk write that dropped them (decisions.md, "Today from a summary").
 */
import { rebuildSubmissionCounts } from '../migrations/018-submission-counts'
import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { sql } from '../sql'

/** The key of a submission without a time, and of one without an accept time. */
const NONE = -9007199254740991

export const SUBMISSION_COUNT_TRIGGER_NAMES = [
  'submission_counts_insert',
  'submission_counts_delete',
  'submission_shapes_insert',
  'submission_shapes_delete',
]

const FOLD = `
  INSERT INTO submission_days (day, n)
    SELECT day, sum(n) FROM submission_count_moves WHERE mask = 0
    GROUP BY 1 HAVING sum(n) <> 0
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  INSERT INTO submission_shapes (day, worker_id, mask, n)
    SELECT day, worker_id, mask, sum(n) FROM submission_count_moves WHERE mask <> 0
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  INSERT INTO submission_work (day, worker_id, work_seconds, n)
    SELECT day, worker_id, work_seconds, sum(n) FROM submission_count_moves WHERE mask <> 0
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0
    ON CONFLICT DO UPDATE SET n = n + excluded.n;
  DELETE FROM submission_count_moves;`

/** Adds the logged moves to the summaries and empties the log (with the annotations' fold). */
export function foldSubmissionMoves(db: Db): void {
  const logged = sql`SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'submission_count_moves')`
  if (pluck<number>(db, logged) !== 1) return
  if (pluck<number>(db, sql`SELECT EXISTS (SELECT 1 FROM submission_count_moves)`) !== 1) return
  db.exec(FOLD)
}

/**
 * Runs a bulk write (a large import, a join) with the summaries' triggers dropped, then counts
 * every submission afresh. Inside the caller's transaction, so a failure restores the triggers.
 */
export function withSubmissionCountsRebuiltAfter<T>(db: Db, write: () => T): T {
  if (!db.inTransaction) throw new Error('the summary is rebuilt only inside a transaction')
  const triggers = all<{ sql: string }>(
    db,
    sql`SELECT sql FROM sqlite_schema
        WHERE type = 'trigger' AND name IN ${sql.list(SUBMISSION_COUNT_TRIGGER_NAMES)}`,
  )
  if (triggers.length === 0) return write()
  for (const name of SUBMISSION_COUNT_TRIGGER_NAMES) db.exec(`DROP TRIGGER IF EXISTS ${name}`)
  const result = write()
  rebuildSubmissionCounts(db)
  for (const trigger of triggers) db.exec(trigger.sql)
  return result
}

/** Days are whole: [start, until) in epoch seconds, both day starts. */
function dayRange(start: number, until: number) {
  return sql`day >= ${Math.floor(start / 86_400)} AND day < ${Math.ceil(until / 86_400)}`
}

const DIMENSIONS = Array.from({ length: 10 }, (_, i) => i + 1)
/** Whether a mask has dimension d (1 or 0), and how many dimensions it has. */
const has = (d: number) => sql.raw(`(mask >> ${d} & 1)`)
const dimensionsOf = sql.raw(DIMENSIONS.map((d) => `(mask >> ${d} & 1)`).join(' + '))

/** A worker's submissions with annotations in a range, summed from the summary. */
export interface RangeWorker {
  workerId: number
  submissions: number
  annotations: number
  /** Submissions with at most `minimal` dimensions. */
  minimal: number
  /** Submissions with dimension d at index d - 1. */
  counts: number[]
}

/**
 * Per worker, the submissions with annotations in [start, until): summed in SQL from the range's
 * summary rows (a few per worker and day), so only a row per worker reaches JavaScript.
 */
export function rangeWorkers(db: Db, start: number, until: number, minimal: number): RangeWorker[] {
  const range = dayRange(start, until)
  const columns = sql.join(DIMENSIONS.map((d) => sql`sum(n * ${has(d)}) AS ${sql.raw(`d${d}`)}`))
  const rows = all<Record<string, number>>(
    db,
    sql`SELECT worker_id AS workerId, sum(n) AS submissions, sum(n * (${dimensionsOf})) AS annotations,
          sum(CASE WHEN ${dimensionsOf} <= ${minimal} THEN n ELSE 0 END) AS minimal, ${columns}
        FROM (SELECT worker_id, mask, n FROM submission_shapes WHERE ${range} AND worker_id > 0
          UNION ALL SELECT worker_id, mask, n FROM submission_count_moves
            WHERE ${range} AND worker_id > 0 AND mask <> 0)
        GROUP BY 1 HAVING sum(n) <> 0`,
  )
  return rows.map((r) => ({
    workerId: r.workerId ?? 0,
    submissions: r.submissions ?? 0,
    annotations: r.annotations ?? 0,
    minimal: r.minimal ?? 0,
    counts: DIMENSIONS.map((d) => r[`d${d}`] ?? 0),
  }))
}

/** The same submissions by worker and work seconds (those without an accept time left out). */
export function rangeWork(
  db: Db,
  start: number,
  until: number,
): { workerId: number; seconds: number; n: number }[] {
  const range = dayRange(start, until)
  return all(
    db,
    sql`SELECT worker_id AS workerId, work_seconds AS seconds, sum(n) AS n FROM (
          SELECT worker_id, work_seconds, n FROM submission_work WHERE ${range} AND worker_id > 0
          UNION ALL SELECT worker_id, work_seconds, n FROM submission_count_moves
            WHERE ${range} AND worker_id > 0 AND mask <> 0)
        WHERE work_seconds <> ${NONE}
        GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
  )
}

/** Every submission with a time, per day (UTC; the day's start in epoch seconds). */
export function submissionDays(db: Db): { day: number; submissions: number }[] {
  return all(
    db,
    sql`SELECT day * 86400 AS day, sum(n) AS submissions FROM (
          SELECT day, n FROM submission_days
          UNION ALL SELECT day, n FROM submission_count_moves WHERE mask = 0)
        WHERE day <> ${NONE} GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1`,
  )
}
