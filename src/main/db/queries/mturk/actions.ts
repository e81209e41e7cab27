import type {
  ActionErrorInfo,
  WorkerActionEntry,
  WorkerActionKind,
} from '../../../../shared/contract/mturk'
import type { Db } from '../../connection'
import { all, get, run } from '../../connection'
import { sql } from '../../sql'

/** One action to record: the operation's input and output (never credentials) or its error. */
export interface NewWorkerAction {
  action: WorkerActionKind
  assignmentId: string | null
  request: unknown
  response: unknown
  error: ActionErrorInfo | null
  note: string
  requestId: string | null
  endpoint: string
  /** A paid bonus's UniqueRequestToken (at most one successful record per token). */
  bonusToken: string | null
  at: number
  changeSetId: number | null
  /** The workers it was about, each with a failure that concerned only them. */
  targets: readonly { workerId: string; failure: string | null }[]
}

export function insertWorkerAction(db: Db, a: NewWorkerAction): number {
  const id = Number(
    run(
      db,
      sql`INSERT INTO worker_actions (action, assignment_id, request, response, error, note,
            request_id, endpoint, bonus_token, at, change_set_id)
          VALUES (${a.action}, ${a.assignmentId}, ${JSON.stringify(a.request)},
            ${a.response === undefined || a.response === null ? null : JSON.stringify(a.response)},
            ${a.error ? JSON.stringify(a.error) : null}, ${a.note}, ${a.requestId}, ${a.endpoint},
            ${a.error ? null : a.bonusToken}, ${a.at}, ${a.changeSetId})`,
    ).lastInsertRowid,
  )
  for (const t of a.targets) {
    run(
      db,
      sql`INSERT INTO worker_action_targets (worker_external_id, action_id, failure)
          VALUES (${t.workerId}, ${id}, ${t.failure}) ON CONFLICT DO NOTHING`,
    )
  }
  return id
}

/** The recorded payment of a bonus with this token, if there is one. */
export function paidBonusId(db: Db, token: string): number | undefined {
  return get<{ id: number }>(
    db,
    sql`SELECT id FROM worker_actions WHERE bonus_token = ${token} AND error IS NULL`,
  )?.id
}

/**
 * A recorded payment of the same bonus (assignment, amount, reason) under any token: one another
 * replica of a team paid and recorded, whose token may derive from another project id.
 */
export function paidBonusLike(
  db: Db,
  p: { assignmentId: string; amount: string; reason: string },
): number | undefined {
  return get<{ id: number }>(
    db,
    sql`SELECT id FROM worker_actions WHERE action = 'bonus' AND error IS NULL
          AND assignment_id = ${p.assignmentId}
          AND json_extract(request, '$.BonusAmount') = ${p.amount}
          AND json_extract(request, '$.Reason') = ${p.reason}
        ORDER BY id LIMIT 1`,
  )?.id
}

type EntryRow = Omit<WorkerActionEntry, 'request' | 'response' | 'error'> & {
  request: string
  response: string | null
  error: string | null
}

const entryColumns = sql`x.id, x.action, x.at, x.assignment_id AS assignmentId,
  (SELECT count(*) FROM worker_action_targets c WHERE c.action_id = x.id) AS workers,
  x.request, x.response, x.error, x.note, x.request_id AS requestId, x.change_set_id AS changeSet`

function toEntry(row: EntryRow & { failure?: string | null }): WorkerActionEntry {
  return {
    ...row,
    failure: row.failure ?? null,
    request: JSON.parse(row.request) as unknown,
    response: row.response === null ? null : (JSON.parse(row.response) as unknown),
    error: row.error === null ? null : (JSON.parse(row.error) as ActionErrorInfo),
  }
}

/** Everything recorded about a worker, newest first. */
export function workerActionEntries(db: Db, workerId: string, limit = 500): WorkerActionEntry[] {
  return all<EntryRow & { failure: string | null }>(
    db,
    sql`SELECT ${entryColumns}, t.failure FROM worker_action_targets t
          JOIN worker_actions x ON x.id = t.action_id
        WHERE t.worker_external_id = ${workerId}
        ORDER BY x.at DESC, x.id DESC LIMIT ${limit}`,
  ).map(toEntry)
}

export function workerActionsById(db: Db, actionIds: readonly number[]): WorkerActionEntry[] {
  if (actionIds.length === 0) return []
  return all<EntryRow>(
    db,
    sql`SELECT ${entryColumns} FROM worker_actions x
        WHERE x.id IN (SELECT value FROM json_each(${JSON.stringify(actionIds)})) ORDER BY x.id`,
  ).map(toEntry)
}
