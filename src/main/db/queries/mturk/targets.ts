import type { QueryTargetCounts } from '../../../../shared/contract/mturk'
import type { AnnotationFilter } from '../../../../shared/filter'
import type { Db } from '../../connection'
import { all, get } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { matchingAnnotationIds } from '../review/query'

/**
 * Who a grid query is about on MTurk, worked out in the database: the distinct submissions of the
 * annotations the filter selects, their assignments and their workers. Only ids MTurk accepts
 * count (worker `A…`, assignment of A–Z and 0–9), as with a selection of rows.
 */

export interface AssignmentTarget {
  assignmentId: string
  workerId: string
}

const VALID_WORKER = sql`w.external_id GLOB 'A?*' AND w.external_id NOT GLOB '*[^A-Z0-9]*'`
const VALID_ASSIGNMENT = sql`length(s.assignment_id) BETWEEN 1 AND 64
  AND s.assignment_id NOT GLOB '*[^A-Z0-9]*'`

/** `t(assignment_id, worker, submitted_at, valid)`: one row per selected submission with a worker. */
function targets(matching: SqlFragment): SqlFragment {
  return sql`WITH chosen AS (SELECT DISTINCT m.id >> 4 AS id FROM (${matching}) AS m),
    t AS (
      SELECT s.assignment_id, w.external_id AS worker, s.submitted_at,
        (s.assignment_id IS NOT NULL AND ${VALID_ASSIGNMENT}) AS valid
      FROM chosen JOIN submissions AS s ON s.id = chosen.id JOIN workers AS w ON w.id = s.worker_id
      WHERE ${VALID_WORKER})`
}

export function queryTargetCounts(db: Db, filter: AnnotationFilter): QueryTargetCounts {
  const matching = matchingAnnotationIds(db, filter)
  if (matching === null)
    return { assignments: 0, workers: 0, bonusAssignments: 0, sampleWorkers: [] }
  const counts = get<{ assignments: number; workers: number; bonusAssignments: number }>(
    db,
    sql`${targets(matching)}
      SELECT count(*) FILTER (WHERE valid) AS assignments, count(DISTINCT worker) AS workers,
        count(DISTINCT worker) FILTER (WHERE valid) AS bonusAssignments
      FROM t`,
  )
  const sample = all<{ worker: string }>(
    db,
    sql`${targets(matching)} SELECT DISTINCT worker FROM t ORDER BY worker LIMIT 5`,
  )
  return {
    assignments: counts?.assignments ?? 0,
    workers: counts?.workers ?? 0,
    bonusAssignments: counts?.bonusAssignments ?? 0,
    sampleWorkers: sample.map((r) => r.worker),
  }
}

/** `select` over `t` (see `targets`) for the filter's submissions; none when it matches nothing. */
function fromTargets<T>(db: Db, filter: AnnotationFilter, select: SqlFragment): T[] {
  const matching = matchingAnnotationIds(db, filter)
  return matching === null ? [] : all<T>(db, sql`${targets(matching)} ${select}`)
}

/** The query's distinct assignments, at most `limit`. */
export function queryAssignments(
  db: Db,
  filter: AnnotationFilter,
  limit: number,
): AssignmentTarget[] {
  return fromTargets<AssignmentTarget>(
    db,
    filter,
    sql`SELECT assignment_id AS assignmentId, worker AS workerId FROM t WHERE valid
      ORDER BY assignment_id LIMIT ${limit}`,
  )
}

/** The query's distinct workers, at most `limit`. */
export function queryWorkers(db: Db, filter: AnnotationFilter, limit: number): string[] {
  return fromTargets<{ worker: string }>(
    db,
    filter,
    sql`SELECT DISTINCT worker FROM t ORDER BY worker LIMIT ${limit}`,
  ).map((r) => r.worker)
}

/** Each worker's latest assignment in the query (what a bonus per worker is paid on). */
export function queryLatestPerWorker(
  db: Db,
  filter: AnnotationFilter,
  limit: number,
): AssignmentTarget[] {
  return fromTargets<AssignmentTarget>(
    db,
    filter,
    sql`SELECT assignment_id AS assignmentId, worker AS workerId FROM (
        SELECT assignment_id, worker, row_number() OVER (
          PARTITION BY worker ORDER BY submitted_at DESC, assignment_id) AS n
        FROM t WHERE valid)
      WHERE n = 1 ORDER BY worker LIMIT ${limit}`,
  )
}
