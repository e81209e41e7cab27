import type { ActionErrorInfo, WorkerActionKind } from '../../../../shared/contract/mturk'
import type { Db } from '../../connection'
import { all, run } from '../../connection'
import { sql } from '../../sql'
import { insertWorkerAction, paidBonusId } from './actions'

/**
 * What an `mturk` change set wrote on MTurk's side, as it travels to a team's other replicas:
 * the assignments it linked or whose status it changed, their HITs, and the worker actions it
 * recorded. Rows are named by MTurk's own ids (HIT, assignment, worker) and a submission by its
 * id, which is the same on every replica; never by a local row id.
 */
export interface MTurkRowsPayload {
  hits?: HitRow[]
  assignments?: AssignmentRow[]
  actions?: ActionRow[]
}

interface HitRow {
  hit_id: string
  hit_type_id: string
  title: string
  created_at: number | null
  expires_at: number | null
  disposal_at: number | null
  status: string | null
  max_assignments: number | null
  signature: string
  raw: string
  listed_at: number
  pulled_at: number | null
  pulled_signature: string | null
  gone_at: number | null
}

interface AssignmentRow {
  assignment_id: string
  hit_id: string
  submission_id: number
  worker_external_id: string
  status: string
  auto_approval_at: number | null
  reviewed_at: number | null
  pulled_at: number
}

interface ActionRow {
  action: string
  assignment_id: string | null
  request: string
  response: string | null
  error: string | null
  note: string
  request_id: string | null
  endpoint: string
  bonus_token: string | null
  at: number
  targets: { worker: string; failure: string | null }[]
}

export function encodeMTurkRows(db: Db, changeSetId: number): MTurkRowsPayload {
  const assignments = all<AssignmentRow>(
    db,
    sql`SELECT assignment_id, hit_id, submission_id, worker_external_id, status,
          auto_approval_at, reviewed_at, pulled_at
        FROM mturk_assignments WHERE change_set_id = ${changeSetId} ORDER BY assignment_id`,
  )
  const hits = all<HitRow>(
    db,
    sql`SELECT hit_id, hit_type_id, title, created_at, expires_at, disposal_at, status,
          max_assignments, signature, raw, listed_at, pulled_at, pulled_signature, gone_at
        FROM mturk_hits WHERE hit_id IN
          (SELECT hit_id FROM mturk_assignments WHERE change_set_id = ${changeSetId})
        ORDER BY hit_id`,
  )
  const actions = all<Omit<ActionRow, 'targets'> & { id: number; targets: string }>(
    db,
    sql`SELECT x.id, x.action, x.assignment_id, x.request, x.response, x.error, x.note,
          x.request_id, x.endpoint, x.bonus_token, x.at,
          (SELECT json_group_array(json_object('worker', t.worker_external_id,
             'failure', t.failure)) FROM worker_action_targets t WHERE t.action_id = x.id) AS targets
        FROM worker_actions x WHERE x.change_set_id = ${changeSetId} ORDER BY x.id`,
  ).map(({ id: _id, targets, ...a }) => ({
    ...a,
    targets: JSON.parse(targets) as ActionRow['targets'],
  }))
  return {
    ...(hits.length > 0 ? { hits } : {}),
    ...(assignments.length > 0 ? { assignments } : {}),
    ...(actions.length > 0 ? { actions } : {}),
  }
}

/**
 * Writes what another replica's `mturk` change set recorded into this replica's change set
 * `changeSetId`: HITs and assignments as they stood there (their submissions' status with
 * them), and its worker actions as done. Nothing is sent to MTurk: an action is a fact about the
 * world, and a bonus recorded here as paid is not offered again. A payment recorded already (both
 * replicas paid it under one token, the second answered "already paid") is kept once.
 */
export function insertMTurkRows(db: Db, changeSetId: number, payload: MTurkRowsPayload): void {
  for (const h of payload.hits ?? []) {
    run(
      db,
      sql`INSERT INTO mturk_hits (hit_id, hit_type_id, title, created_at, expires_at, disposal_at,
            status, max_assignments, signature, raw, listed_at, pulled_at, pulled_signature, gone_at)
          VALUES (${h.hit_id}, ${h.hit_type_id}, ${h.title}, ${h.created_at}, ${h.expires_at},
            ${h.disposal_at}, ${h.status}, ${h.max_assignments}, ${h.signature}, ${h.raw},
            ${h.listed_at}, ${h.pulled_at}, ${h.pulled_signature}, ${h.gone_at})
          ON CONFLICT (hit_id) DO UPDATE SET hit_type_id = excluded.hit_type_id,
            title = excluded.title, created_at = excluded.created_at,
            expires_at = excluded.expires_at, disposal_at = excluded.disposal_at,
            status = excluded.status, max_assignments = excluded.max_assignments,
            signature = excluded.signature, raw = excluded.raw, listed_at = excluded.listed_at,
            pulled_at = excluded.pulled_at, pulled_signature = excluded.pulled_signature,
            gone_at = excluded.gone_at`,
    )
  }
  for (const a of payload.assignments ?? []) {
    run(
      db,
      sql`INSERT INTO mturk_assignments (assignment_id, hit_id, submission_id, worker_external_id,
            status, auto_approval_at, reviewed_at, pulled_at, change_set_id)
          VALUES (${a.assignment_id}, ${a.hit_id}, ${a.submission_id}, ${a.worker_external_id},
            ${a.status}, ${a.auto_approval_at}, ${a.reviewed_at}, ${a.pulled_at}, ${changeSetId})
          ON CONFLICT (assignment_id) DO UPDATE SET hit_id = excluded.hit_id,
            submission_id = excluded.submission_id,
            worker_external_id = excluded.worker_external_id, status = excluded.status,
            auto_approval_at = excluded.auto_approval_at, reviewed_at = excluded.reviewed_at,
            pulled_at = excluded.pulled_at, change_set_id = excluded.change_set_id`,
    )
    run(
      db,
      sql`UPDATE submissions SET status = ${a.status}, assignment_id = ${a.assignment_id}
          WHERE id = ${a.submission_id}`,
    )
  }
  for (const x of payload.actions ?? []) {
    if (x.bonus_token !== null && x.error === null && paidBonusId(db, x.bonus_token) !== undefined)
      continue
    // Recorded as this replica records its own, from the stored columns the payload carries.
    insertWorkerAction(db, {
      action: x.action as WorkerActionKind,
      assignmentId: x.assignment_id,
      request: JSON.parse(x.request) as unknown,
      response: x.response === null ? null : (JSON.parse(x.response) as unknown),
      error: x.error === null ? null : (JSON.parse(x.error) as ActionErrorInfo),
      note: x.note,
      requestId: x.request_id,
      endpoint: x.endpoint,
      bonusToken: x.bonus_token,
      at: x.at,
      changeSetId,
      targets: x.targets.map((t) => ({ workerId: t.worker, failure: t.failure })),
    })
  }
}
