import type { AssignmentStatus, WorkerAssignment } from '../../../../shared/contract/mturk'
import type { Db } from '../../connection'
import { all, run } from '../../connection'
import { sql } from '../../sql'

/** A pulled assignment's MTurk side, next to the submission that holds its answer. */
export interface AssignmentLink {
  assignmentId: string
  hitId: string
  /** The submission's source key (`a:<assignmentId>`), written just before in the same transaction. */
  sourceKey: string
  workerId: string
  status: AssignmentStatus
  /** Epoch seconds. */
  autoApprovalAt: number | null
  reviewedAt: number | null
}

const ids = (list: readonly string[]): string => JSON.stringify(list)

/** Statuses of the assignments the project already has, by assignment id. */
export function knownAssignments(
  db: Db,
  assignmentIds: readonly string[],
): Map<string, AssignmentStatus> {
  if (assignmentIds.length === 0) return new Map()
  const rows = all<{ id: string; status: AssignmentStatus }>(
    db,
    sql`SELECT assignment_id AS id, status FROM mturk_assignments
        WHERE assignment_id IN (SELECT value FROM json_each(${ids(assignmentIds)}))`,
  )
  return new Map(rows.map((r) => [r.id, r.status]))
}

/**
 * Links newly written submissions to their assignments and gives them their status: two
 * statements per page, whatever its size. The assignments name the change set that wrote them,
 * with which they travel to a team's other replicas.
 */
export function linkAssignments(
  db: Db,
  links: readonly AssignmentLink[],
  pulledAt: number,
  changeSetId: number,
): void {
  if (links.length === 0) return
  const rows = JSON.stringify(links)
  run(
    db,
    sql`INSERT INTO mturk_assignments (assignment_id, hit_id, submission_id, worker_external_id,
          status, auto_approval_at, reviewed_at, pulled_at, change_set_id)
        SELECT j.value ->> 'assignmentId', j.value ->> 'hitId', s.id, j.value ->> 'workerId',
          j.value ->> 'status', j.value ->> 'autoApprovalAt', j.value ->> 'reviewedAt', ${pulledAt},
          ${changeSetId}
        FROM json_each(${rows}) AS j
          JOIN submissions AS s ON s.assignment_id = j.value ->> 'assignmentId'
        WHERE true
        ON CONFLICT (assignment_id) DO UPDATE SET status = excluded.status,
          auto_approval_at = excluded.auto_approval_at, reviewed_at = excluded.reviewed_at,
          pulled_at = excluded.pulled_at, change_set_id = excluded.change_set_id`,
  )
  run(
    db,
    sql`UPDATE submissions SET status = j.value ->> 'status'
        FROM json_each(${rows}) AS j
        WHERE submissions.assignment_id = j.value ->> 'assignmentId'`,
  )
}

/**
 * A known assignment's new status (pulled, or set by our own approve/reject), written in change
 * set `changeSetId`, with which it travels.
 */
export function setAssignmentStatus(
  db: Db,
  change: {
    assignmentId: string
    status: AssignmentStatus
    reviewedAt: number | null
    at: number
    changeSetId: number
  },
): boolean {
  const changed = run(
    db,
    sql`UPDATE mturk_assignments SET status = ${change.status}, reviewed_at = ${change.reviewedAt},
          pulled_at = max(pulled_at, ${change.at}), change_set_id = ${change.changeSetId}
        WHERE assignment_id = ${change.assignmentId} AND status != ${change.status}`,
  ).changes
  run(
    db,
    sql`UPDATE submissions SET status = ${change.status}
        WHERE id = (SELECT submission_id FROM mturk_assignments WHERE assignment_id = ${change.assignmentId})`,
  )
  return changed > 0
}

/** Pulled submissions by MTurk status. */
export function statusCounts(db: Db): Record<AssignmentStatus, number> {
  const counts: Record<AssignmentStatus, number> = { Submitted: 0, Approved: 0, Rejected: 0 }
  for (const row of all<{ status: AssignmentStatus; n: number }>(
    db,
    sql`SELECT status, count(*) AS n FROM submissions WHERE status IS NOT NULL GROUP BY status`,
  )) {
    counts[row.status] = row.n
  }
  return counts
}

/** Who did each assignment (the project's pulled or imported work), by assignment id. */
export function assignmentWorkers(db: Db, assignmentIds: readonly string[]): Map<string, string> {
  if (assignmentIds.length === 0) return new Map()
  const rows = all<{ id: string; worker: string }>(
    db,
    sql`SELECT s.assignment_id AS id, w.external_id AS worker FROM submissions s
          JOIN workers w ON w.id = s.worker_id
        WHERE s.assignment_id IN (SELECT value FROM json_each(${ids(assignmentIds)}))`,
  )
  return new Map(rows.map((r) => [r.id, r.worker]))
}

/** A worker's pulled assignments, newest first, with the bonuses recorded on each. */
export function workerAssignments(db: Db, workerId: string): WorkerAssignment[] {
  const rows = all<Omit<WorkerAssignment, 'workSeconds' | 'bonusPaid'> & { bonusCents: number }>(
    db,
    sql`SELECT a.assignment_id AS assignmentId, a.hit_id AS hitId, h.title AS hitTitle, a.status,
          a.submission_id AS submissionId, s.accepted_at AS acceptedAt,
          s.submitted_at AS submittedAt, a.auto_approval_at AS autoApprovalAt,
          coalesce((SELECT sum(round(CAST(json_extract(x.request, '$.BonusAmount') AS REAL) * 100))
            FROM worker_actions x WHERE x.action = 'bonus' AND x.error IS NULL
              AND x.assignment_id = a.assignment_id), 0) AS bonusCents
        FROM mturk_assignments a
          JOIN submissions s ON s.id = a.submission_id
          JOIN mturk_hits h ON h.hit_id = a.hit_id
        WHERE a.worker_external_id = ${workerId}
        ORDER BY s.submitted_at DESC, a.assignment_id`,
  )
  return rows.map(({ bonusCents, ...a }) => ({
    ...a,
    workSeconds:
      a.submittedAt !== null && a.acceptedAt !== null ? a.submittedAt - a.acceptedAt : null,
    bonusPaid: (bonusCents / 100).toFixed(2),
  }))
}
