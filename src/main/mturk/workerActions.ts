/**
 * Acting on workers and keeping a record of every action: what was sent, what came back, when, and
 * (for approvals and rejections, which change a submission's status) the change set. Each action is
 * recorded in its own small transaction as soon as it ends, so a crash in the middle of a batch
 * loses nothing that was done. A bonus already recorded as paid is not sent again.
 */
import type {
  ActionFailure,
  ActionOutcome,
  AssignmentStatus,
  WorkerActionKind,
} from '../../shared/contract/mturk'
import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { createChangeSet, describeChangeSet } from '../db/queries/changes/sets'
import { assignmentWorkers, setAssignmentStatus } from '../db/queries/mturk/assignments'
import {
  insertWorkerAction,
  paidBonusId,
  paidBonusLike,
  workerActionsById,
} from '../db/queries/mturk/actions'
import {
  type ActionRecord,
  accountBalance,
  approve,
  block,
  bonus,
  bonusToken,
  disqualify,
  normalizeMoney,
  notify,
  qualify,
  reject,
  unblock,
} from './actions'
import type { MTurkContext } from './call'
import { plural } from '../../shared/text'

export interface ActionContext {
  db: Db
  ctx: MTurkContext
  /** The endpoint URL, recorded with each action. */
  endpoint: string
  projectId: string
  author: string
  /** Requests in flight at once (default 4). */
  concurrency?: number
}

const ACTION_WORDS: Record<WorkerActionKind, string> = {
  approve: 'Approvals',
  reject: 'Rejections',
  bonus: 'Bonuses',
  notify: 'Messages to workers',
  qualify: 'Qualifications granted',
  disqualify: 'Qualifications revoked',
  block: 'Blocks',
  unblock: 'Unblocks',
}

/** Collects one batch's records and outcome. */
class Batch {
  readonly ids: number[] = []
  readonly failures: ActionFailure[] = []
  succeeded = 0
  failed = 0
  skipped = 0
  /** The batch's change set: every action it records, and the statuses it sets. */
  private changeSet: { id: number; recorded: number; statuses: number } | null = null

  constructor(
    private readonly ac: ActionContext,
    readonly action: WorkerActionKind,
  ) {}

  /** Records one action; a successful approve/reject also sets the local status. */
  record(
    r: ActionRecord,
    about: {
      assignmentId?: string
      workers: readonly string[]
      failures?: ReadonlyMap<string, string>
      bonusToken?: string
      status?: AssignmentStatus
    },
  ): void {
    const { db } = this.ac
    const duplicate = db
      .transaction((): boolean => {
        // A second click that raced the first: the payment is recorded once.
        const paid = about.bonusToken && !r.error ? paidBonusId(db, about.bonusToken) : undefined
        if (paid !== undefined) {
          this.ids.push(paid)
          return true
        }
        const changeSet = this.changeSetFor()
        changeSet.recorded++
        if (!r.error && about.status && about.assignmentId) {
          if (this.localStatus(changeSet.id, about.assignmentId, about.status)) changeSet.statuses++
        }
        describeChangeSet(db, changeSet.id, this.description(changeSet))
        this.ids.push(
          insertWorkerAction(db, {
            action: this.action,
            assignmentId: about.assignmentId ?? null,
            request: r.request,
            response: r.response ?? null,
            error: r.error ?? null,
            note: r.note ?? '',
            requestId: r.requestId ?? null,
            endpoint: this.ac.endpoint,
            bonusToken: about.bonusToken ?? null,
            at: r.at,
            changeSetId: changeSet.id,
            targets: about.workers.map((workerId) => ({
              workerId,
              failure: about.failures?.get(workerId) ?? null,
            })),
          }),
        )
        return false
      })
      .immediate()
    if (duplicate) {
      this.skipped++
    } else if (r.error) {
      this.failed++
      const workers = about.workers.length > 0 ? about.workers : ['']
      for (const workerId of workers) {
        this.failures.push({
          workerId,
          ...(about.assignmentId ? { assignmentId: about.assignmentId } : {}),
          message: r.error.message,
        })
      }
    } else {
      this.succeeded++
    }
  }

  /**
   * One change set per batch: what it did on MTurk travels with it to a team's other replicas,
   * which record it as done. (An exchange waits for the batch: `act` runs it in the jobs' turn.)
   */
  private changeSetFor(): { id: number; recorded: number; statuses: number } {
    this.changeSet ??= {
      id: createChangeSet(this.ac.db, { kind: 'mturk', author: this.ac.author, description: '' })
        .id,
      recorded: 0,
      statuses: 0,
    }
    return this.changeSet
  }

  private description(c: { recorded: number; statuses: number }): string {
    if (c.statuses > 0) {
      const verb = this.action === 'approve' ? 'Approved' : 'Rejected'
      return `${verb} ${plural(c.statuses, 'assignment')} on MTurk`
    }
    return `${ACTION_WORDS[this.action]} on MTurk: ${plural(c.recorded, 'request')} recorded`
  }

  /** Sets a submission's status in the batch's change set; false when it already had it. */
  private localStatus(
    changeSetId: number,
    assignmentId: string,
    status: AssignmentStatus,
  ): boolean {
    const at = Date.now()
    return setAssignmentStatus(this.ac.db, {
      assignmentId,
      status,
      reviewedAt: Math.floor(at / 1000),
      at,
      changeSetId,
    })
  }

  outcome(): ActionOutcome {
    return {
      action: this.action,
      succeeded: this.succeeded,
      failed: this.failed,
      skipped: this.skipped,
      entries: workerActionsById(this.ac.db, this.ids),
      failures: this.failures,
      changeSet: this.changeSet?.id ?? null,
    }
  }
}

/** Runs `work` over `items`, `limit` at a time, in order of starting. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane))
}

const unique = <T>(list: readonly T[]): T[] => [...new Set(list)]

async function review(
  ac: ActionContext,
  action: 'approve' | 'reject',
  assignmentIds: readonly string[],
  feedback: string | undefined,
): Promise<ActionOutcome> {
  const ids = unique(assignmentIds)
  const workers = assignmentWorkers(ac.db, ids)
  const batch = new Batch(ac, action)
  await eachLimited(ids, ac.concurrency ?? 4, async (assignmentId) => {
    const r =
      action === 'approve'
        ? await approve(ac.ctx, { assignmentId, ...(feedback ? { feedback } : {}) })
        : await reject(ac.ctx, { assignmentId, feedback: feedback ?? '' })
    const worker = workers.get(assignmentId)
    batch.record(r, {
      assignmentId,
      workers: worker ? [worker] : [],
      status: action === 'approve' ? 'Approved' : 'Rejected',
    })
  })
  return batch.outcome()
}

export function approveAssignments(
  ac: ActionContext,
  p: { assignmentIds: readonly string[]; feedback?: string | undefined },
): Promise<ActionOutcome> {
  return review(ac, 'approve', p.assignmentIds, p.feedback)
}

export function rejectAssignments(
  ac: ActionContext,
  p: { assignmentIds: readonly string[]; feedback: string },
): Promise<ActionOutcome> {
  return review(ac, 'reject', p.assignmentIds, p.feedback)
}

/** Dollars → cents without floating-point drift ("0.10" × 3 is 30 cents). */
export function cents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.trim().split('.')
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2))
}

/**
 * One bonus per item. The total is checked against the available balance first; an item whose
 * bonus the project already recorded as paid is skipped (its token would be refused anyway
 * within 24 h, and after that could pay twice).
 */
export async function payBonuses(
  ac: ActionContext,
  p: {
    items: readonly { workerId: string; assignmentId: string }[]
    amount: string
    reason: string
  },
): Promise<ActionOutcome> {
  const items = [...new Map(p.items.map((i) => [i.assignmentId, i])).values()]
  const batch = new Batch(ac, 'bonus')
  const toPay = items.filter((item) => {
    const token = bonusToken(ac.projectId, item.assignmentId, p.amount, p.reason)
    const paid =
      paidBonusId(ac.db, token) ??
      paidBonusLike(ac.db, {
        assignmentId: item.assignmentId,
        amount: normalizeMoney(p.amount),
        reason: p.reason,
      })
    if (paid !== undefined) {
      batch.skipped++
      batch.ids.push(paid)
    }
    return paid === undefined
  })
  if (toPay.length > 0) await checkBalance(ac, cents(p.amount) * toPay.length)
  await eachLimited(toPay, ac.concurrency ?? 4, async (item) => {
    const r = await bonus(ac.ctx, {
      projectId: ac.projectId,
      ...item,
      amount: p.amount,
      reason: p.reason,
    })
    const token = bonusToken(ac.projectId, item.assignmentId, p.amount, p.reason)
    batch.record(r, {
      assignmentId: item.assignmentId,
      workers: [item.workerId],
      bonusToken: token,
    })
  })
  return batch.outcome()
}

async function checkBalance(ac: ActionContext, totalCents: number): Promise<void> {
  const balance = await accountBalance(ac.ctx)
  const available = balance.response?.AvailableBalance
  if (balance.error || typeof available !== 'string') {
    throw new UserError({
      type: 'input',
      code: 'mturk-balance',
      message: `Could not read the account balance, so no bonus was sent: ${balance.error?.message ?? 'no balance in the answer'}`,
    })
  }
  if (totalCents > cents(available)) {
    throw new UserError({
      type: 'input',
      code: 'insufficient-balance',
      message: `The bonuses total $${(totalCents / 100).toFixed(2)}, more than the available balance of $${available}. Nothing was sent.`,
    })
  }
}

/** NotifyWorkers in batches of 100, one record per call, failures per worker. */
export async function notifyWorkers(
  ac: ActionContext,
  p: { workerIds: readonly string[]; subject: string; message: string },
): Promise<ActionOutcome> {
  const batch = new Batch(ac, 'notify')
  const { records, failures } = await notify(ac.ctx, {
    subject: p.subject,
    message: p.message,
    workerIds: unique(p.workerIds),
  })
  const byWorker = new Map(failures.map((f) => [f.workerId, `${f.code}: ${f.message}`]))
  for (const r of records) {
    const workers = (r.request as { WorkerIds: string[] }).WorkerIds
    batch.record(r, { workers, failures: byWorker })
    // A call that succeeded can still fail for some of its workers: report them.
    if (!r.error) {
      for (const workerId of workers) {
        const failure = byWorker.get(workerId)
        if (failure) batch.failures.push({ workerId, message: failure })
      }
    }
  }
  return batch.outcome()
}

/** One request per worker (qualify, disqualify, block, unblock). */
async function perWorker(
  ac: ActionContext,
  action: WorkerActionKind,
  workerIds: readonly string[],
  send: (workerId: string) => Promise<ActionRecord>,
): Promise<ActionOutcome> {
  const batch = new Batch(ac, action)
  await eachLimited(unique(workerIds), ac.concurrency ?? 4, async (workerId) => {
    batch.record(await send(workerId), { workers: [workerId] })
  })
  return batch.outcome()
}

export function qualifyWorkers(
  ac: ActionContext,
  p: {
    workerIds: readonly string[]
    qualificationTypeId: string
    value: number
    notify?: boolean | undefined
  },
): Promise<ActionOutcome> {
  return perWorker(ac, 'qualify', p.workerIds, (workerId) =>
    qualify(ac.ctx, {
      qualificationTypeId: p.qualificationTypeId,
      workerId,
      value: p.value,
      sendNotification: p.notify ?? false,
    }),
  )
}

export function disqualifyWorkers(
  ac: ActionContext,
  p: { workerIds: readonly string[]; qualificationTypeId: string; reason?: string | undefined },
): Promise<ActionOutcome> {
  return perWorker(ac, 'disqualify', p.workerIds, (workerId) =>
    disqualify(ac.ctx, {
      qualificationTypeId: p.qualificationTypeId,
      workerId,
      ...(p.reason ? { reason: p.reason } : {}),
    }),
  )
}

export function blockWorkers(
  ac: ActionContext,
  p: { workerIds: readonly string[]; reason: string },
): Promise<ActionOutcome> {
  return perWorker(ac, 'block', p.workerIds, (workerId) =>
    block(ac.ctx, { workerId, reason: p.reason }),
  )
}

export function unblockWorkers(
  ac: ActionContext,
  p: { workerIds: readonly string[]; reason?: string | undefined },
): Promise<ActionOutcome> {
  return perWorker(ac, 'unblock', p.workerIds, (workerId) =>
    unblock(ac.ctx, { workerId, ...(p.reason ? { reason: p.reason } : {}) }),
  )
}
