/**
 * Acting on workers. Each function returns what was sent and what came back (or the error), for
 * the caller to record; nothing here throws for a service error. Retries are safe: approvals and
 * rejections confirm a lost success with GetAssignment, and bonuses carry a deterministic
 * UniqueRequestToken so the service refuses to pay twice (FORMATS §3.5).
 */
import { createHash } from 'node:crypto'
import {
  ApproveAssignmentCommand,
  AssociateQualificationWithWorkerCommand,
  CreateWorkerBlockCommand,
  DeleteWorkerBlockCommand,
  DisassociateQualificationFromWorkerCommand,
  GetAccountBalanceCommand,
  GetAssignmentCommand,
  ListBonusPaymentsCommand,
  ListQualificationTypesCommand,
  ListWorkersWithQualificationTypeCommand,
  NotifyWorkersCommand,
  RejectAssignmentCommand,
  SendBonusCommand,
  type BonusPayment,
  type QualificationType,
} from '@aws-sdk/client-mturk'
import { type MTurkContext, send } from './call'
import { append } from '../../shared/lists'

type ActionKind =
  | 'approve'
  | 'reject'
  | 'bonus'
  | 'notify'
  | 'qualify'
  | 'disqualify'
  | 'block'
  | 'unblock'
  | 'count-qualified'
  | 'qualification-types'
  | 'balance'

export interface ActionError {
  name: string
  /** `TurkErrorCode`, e.g. `AWS.MechanicalTurk.InvalidAssignmentState`. */
  code?: string
  message: string
  httpStatus?: number
}

/** One action as it should be recorded. `request` is the operation's input: never credentials. */
export interface ActionRecord<Req = Record<string, unknown>, Res = Record<string, unknown>> {
  action: ActionKind
  request: Req
  response?: Res
  error?: ActionError
  /** Why a failure counts as done (a lost success confirmed, a bonus token already used). */
  note?: string
  requestId?: string
  /** Epoch ms when the action finished. */
  at: number
}

type Output = { $metadata: { requestId?: string } }

/**
 * Runs one action and turns its outcome into a record. Cancelling is not an outcome: it is
 * rethrown so the job stops (a cancelled approve or bonus is safe to repeat later).
 */
async function perform<Req, Res extends Output>(
  ctx: MTurkContext,
  action: ActionKind,
  request: Req,
  run: () => Promise<Res>,
): Promise<ActionRecord<Req, Omit<Res, '$metadata'>>> {
  try {
    const { $metadata, ...response } = await run()
    return { action, request, response, requestId: $metadata.requestId, at: Date.now() }
  } catch (e) {
    if (ctx.signal?.aborted) throw e
    return { action, request, error: toActionError(e), ...requestIdOf(e), at: Date.now() }
  }
}

export function toActionError(e: unknown): ActionError {
  const err = e as {
    name?: string
    message?: string
    TurkErrorCode?: string
    $metadata?: Output['$metadata'] & { httpStatusCode?: number }
  }
  return {
    name: err?.name ?? 'Error',
    message: err?.message ?? String(e),
    ...(err?.TurkErrorCode ? { code: err.TurkErrorCode } : {}),
    ...(err?.$metadata?.httpStatusCode ? { httpStatus: err.$metadata.httpStatusCode } : {}),
  }
}

function requestIdOf(e: unknown): { requestId?: string } {
  const id = (e as { $metadata?: { requestId?: string } })?.$metadata?.requestId
  return id ? { requestId: id } : {}
}

function refused<Req>(action: ActionKind, request: Req, message: string): ActionRecord<Req, never> {
  return { action, request, error: { name: 'InvalidInput', message }, at: Date.now() }
}

const INVALID_STATE = 'AWS.MechanicalTurk.InvalidAssignmentState'

/**
 * An approve/reject that failed with InvalidAssignmentState may have succeeded on an attempt
 * whose answer was lost: if the assignment now has the wanted status, it is done.
 */
async function confirmStatus<Req, Res extends object>(
  ctx: MTurkContext,
  record: ActionRecord<Req, Res>,
  assignmentId: string,
  wanted: 'Approved' | 'Rejected',
): Promise<ActionRecord<Req, Res>> {
  if (record.error?.code !== INVALID_STATE) return record
  try {
    const got = await send(ctx, (c, o) =>
      c.send(new GetAssignmentCommand({ AssignmentId: assignmentId }), o),
    )
    if (got.Assignment?.AssignmentStatus !== wanted) return record
    const { error: _error, ...rest } = record
    // Approve and reject answer `{}`; the confirmed outcome is recorded the same way.
    return { ...rest, response: {} as Res, note: `already ${wanted.toLowerCase()} (GetAssignment)` }
  } catch {
    return record
  }
}

export async function approve(
  ctx: MTurkContext,
  p: { assignmentId: string; feedback?: string; overrideRejection?: boolean },
): Promise<ActionRecord> {
  const request = {
    AssignmentId: p.assignmentId,
    ...(p.feedback ? { RequesterFeedback: p.feedback } : {}),
    ...(p.overrideRejection ? { OverrideRejection: true } : {}),
  }
  const record = await perform(ctx, 'approve', request, () =>
    send(ctx, (c, o) => c.send(new ApproveAssignmentCommand(request), o)),
  )
  return confirmStatus(ctx, record, p.assignmentId, 'Approved')
}

export async function reject(
  ctx: MTurkContext,
  p: { assignmentId: string; feedback: string },
): Promise<ActionRecord> {
  const request = { AssignmentId: p.assignmentId, RequesterFeedback: p.feedback }
  if (p.feedback.trim() === '') return refused('reject', request, 'Feedback is required to reject.')
  const record = await perform(ctx, 'reject', request, () =>
    send(ctx, (c, o) => c.send(new RejectAssignmentCommand(request), o)),
  )
  return confirmStatus(ctx, record, p.assignmentId, 'Rejected')
}

/** `"1.5"` → `"1.50"`, so equal amounts give equal tokens. */
export function normalizeMoney(amount: string): string {
  return /^[0-9]+(\.[0-9]{0,2})?$/.test(amount.trim()) ? Number(amount).toFixed(2) : amount
}

/**
 * The same bonus (project, assignment, amount, reason) always gets the same token, so a retry —
 * by the SDK, by us, or by a user clicking again within 24 h — cannot pay twice.
 */
export function bonusToken(
  projectId: string,
  assignmentId: string,
  amount: string,
  reason: string,
): string {
  const key = JSON.stringify([projectId, assignmentId, normalizeMoney(amount), reason])
  return `winnow-${createHash('sha256').update(key).digest('base64url').slice(0, 40)}`
}

export async function bonus(
  ctx: MTurkContext,
  p: { projectId: string; workerId: string; assignmentId: string; amount: string; reason: string },
): Promise<ActionRecord> {
  const request = {
    WorkerId: p.workerId,
    AssignmentId: p.assignmentId,
    BonusAmount: normalizeMoney(p.amount),
    Reason: p.reason,
    UniqueRequestToken: bonusToken(p.projectId, p.assignmentId, p.amount, p.reason),
  }
  if (p.reason.trim() === '') return refused('bonus', request, 'A bonus needs a reason.')
  const record = await perform(ctx, 'bonus', request, () =>
    send(ctx, (c, o) => c.send(new SendBonusCommand(request), o)),
  )
  if (record.error?.name !== 'RequestError') return record
  // A used token is answered with a RequestError (naming the token, as far as is known): the bonus
  // was paid before. Whatever the wording, ListBonusPayments settles it.
  const { error: _error, ...rest } = record
  if (record.error.message.includes(request.UniqueRequestToken)) {
    return { ...rest, response: {}, note: 'already paid (UniqueRequestToken used before)' }
  }
  const paid = await bonusPayments(ctx, p.assignmentId).catch(() => [])
  const same = paid.some(
    (b) => b.BonusAmount === request.BonusAmount && b.Reason === request.Reason,
  )
  return same ? { ...rest, response: {}, note: 'already paid (ListBonusPayments)' } : record
}

/** Every bonus paid for an assignment, to reconcile local records with the service. */
async function bonusPayments(ctx: MTurkContext, assignmentId: string): Promise<BonusPayment[]> {
  const all: BonusPayment[] = []
  let token: string | undefined
  do {
    const input = {
      AssignmentId: assignmentId,
      MaxResults: 100,
      ...(token ? { NextToken: token } : {}),
    }
    const page = await send(ctx, (c, o) => c.send(new ListBonusPaymentsCommand(input), o))
    append(all, page.BonusPayments ?? [])
    token = page.NextToken || undefined
  } while (token)
  return all
}

export interface NotifyFailure {
  workerId: string
  code: string
  message: string
}

/** Messages workers in batches of 100; a failed batch reports each of its workers as failed. */
export async function notify(
  ctx: MTurkContext,
  p: { subject: string; message: string; workerIds: readonly string[] },
): Promise<{ records: ActionRecord[]; failures: NotifyFailure[] }> {
  const ids = [...new Set(p.workerIds)]
  const records: ActionRecord[] = []
  const failures: NotifyFailure[] = []
  for (let i = 0; i < ids.length; i += 100) {
    const request = { Subject: p.subject, MessageText: p.message, WorkerIds: ids.slice(i, i + 100) }
    const record = await perform(ctx, 'notify', request, () =>
      send(ctx, (c, o) => c.send(new NotifyWorkersCommand(request), o)),
    )
    records.push(record)
    for (const f of record.response?.NotifyWorkersFailureStatuses ?? []) {
      failures.push({
        workerId: f.WorkerId ?? '',
        code: f.NotifyWorkersFailureCode ?? 'HardFailure',
        message: f.NotifyWorkersFailureMessage ?? '',
      })
    }
    if (record.error) {
      const { name, message } = record.error
      for (const workerId of request.WorkerIds) failures.push({ workerId, code: name, message })
    }
  }
  return { records, failures }
}

export function qualify(
  ctx: MTurkContext,
  p: { qualificationTypeId: string; workerId: string; value?: number; sendNotification?: boolean },
): Promise<ActionRecord> {
  const request = {
    QualificationTypeId: p.qualificationTypeId,
    WorkerId: p.workerId,
    IntegerValue: p.value ?? 1,
    SendNotification: p.sendNotification ?? false,
  }
  return perform(ctx, 'qualify', request, () =>
    send(ctx, (c, o) => c.send(new AssociateQualificationWithWorkerCommand(request), o)),
  )
}

export function disqualify(
  ctx: MTurkContext,
  p: { qualificationTypeId: string; workerId: string; reason?: string },
): Promise<ActionRecord> {
  const request = {
    QualificationTypeId: p.qualificationTypeId,
    WorkerId: p.workerId,
    ...(p.reason ? { Reason: p.reason } : {}),
  }
  return perform(ctx, 'disqualify', request, () =>
    send(ctx, (c, o) => c.send(new DisassociateQualificationFromWorkerCommand(request), o)),
  )
}

export function block(
  ctx: MTurkContext,
  p: { workerId: string; reason: string },
): Promise<ActionRecord> {
  const request = { WorkerId: p.workerId, Reason: p.reason }
  if (p.reason.trim() === '')
    return Promise.resolve(refused('block', request, 'A block needs a reason.'))
  return perform(ctx, 'block', request, () =>
    send(ctx, (c, o) => c.send(new CreateWorkerBlockCommand(request), o)),
  )
}

export function unblock(
  ctx: MTurkContext,
  p: { workerId: string; reason?: string },
): Promise<ActionRecord> {
  const request = { WorkerId: p.workerId, ...(p.reason ? { Reason: p.reason } : {}) }
  return perform(ctx, 'unblock', request, () =>
    send(ctx, (c, o) => c.send(new DeleteWorkerBlockCommand(request), o)),
  )
}

/** Counts the workers holding a qualification type, page by page. */
export function countQualifiedWorkers(
  ctx: MTurkContext,
  p: { qualificationTypeId: string; status?: 'Granted' | 'Revoked' },
): Promise<ActionRecord<Record<string, unknown>, { count: number; pages: number }>> {
  const request = { QualificationTypeId: p.qualificationTypeId, Status: p.status ?? 'Granted' }
  return perform(ctx, 'count-qualified', request, async () => {
    let count = 0
    let pages = 0
    let token: string | undefined
    let requestId: string | undefined
    do {
      const input = { ...request, MaxResults: 100, ...(token ? { NextToken: token } : {}) }
      const page = await send(ctx, (c, o) =>
        c.send(new ListWorkersWithQualificationTypeCommand(input), o),
      )
      count += page.Qualifications?.length ?? 0
      pages++
      requestId = page.$metadata.requestId
      token = page.NextToken || undefined
    } while (token)
    return { count, pages, $metadata: { requestId } }
  })
}

/** The qualification types this account owns, for pickers and per-type counts. */
export function qualificationTypes(
  ctx: MTurkContext,
): Promise<ActionRecord<Record<string, unknown>, { QualificationTypes: QualificationType[] }>> {
  const request = { MustBeRequestable: false, MustBeOwnedByCaller: true }
  return perform(ctx, 'qualification-types', request, async () => {
    const all: QualificationType[] = []
    let token: string | undefined
    let requestId: string | undefined
    do {
      const input = { ...request, MaxResults: 100, ...(token ? { NextToken: token } : {}) }
      const page = await send(ctx, (c, o) => c.send(new ListQualificationTypesCommand(input), o))
      append(all, page.QualificationTypes ?? [])
      requestId = page.$metadata.requestId
      token = page.NextToken || undefined
    } while (token)
    return { QualificationTypes: all, $metadata: { requestId } }
  })
}

export function accountBalance(ctx: MTurkContext): Promise<ActionRecord> {
  return perform(ctx, 'balance', {}, () =>
    send(ctx, (c, o) => c.send(new GetAccountBalanceCommand({}), o)),
  )
}
