import type { ActionOutcome } from '../../../shared/contract/mturk'
import type { PlannedQualification, QualifyResult } from '../../../shared/crowdaq/contract'
import type { Db } from '../../db/connection'
import { CancelledError } from '../../jobs/cancel'
import { qualifiedBefore } from './db/attempts'
import { type ActionContext, qualifyWorkers } from '../../mturk/workerActions'
import { gradeExam, plannedQualifications } from './grade'

/** The qualifications an exam's bands call for, each marked when the project already sent it. */
function planQualifications(db: Db, examId: string): PlannedQualification[] {
  return plannedQualifications(gradeExam(db, examId), (type) => qualifiedBefore(db, type))
}

/** What applying the bands would send; nothing is sent. */
export function bandsDryRun(db: Db, examId: string): QualifyResult {
  const planned = planQualifications(db, examId)
  const skipped = planned.filter((p) => p.alreadySent).length
  return { dryRun: true, planned, sent: 0, skipped, failed: 0, outcomes: [] }
}

/**
 * Applies the bands: every worker whose standing attempt falls in a band with a qualification
 * type gets it with the band's value or `round(grade × 100)`, through the worker actions (so each
 * request is recorded). What the records show as sent with the same value is not sent again.
 */
export interface ApplyHooks {
  /** After each group of requests: workers answered so far, of how many to send. */
  progress?(done: number, total: number): void
  /** Polled between groups: true stops sending (what was sent stays recorded). */
  cancelled?(): boolean
  /** Workers per group (default 25). */
  group?: number
}

export async function applyBands(
  ac: ActionContext,
  examId: string,
  hooks: ApplyHooks = {},
): Promise<QualifyResult> {
  const planned = planQualifications(ac.db, examId)
  const toSend = planned.filter((p) => !p.alreadySent)
  const result: QualifyResult = {
    dryRun: false,
    planned,
    sent: 0,
    skipped: planned.length - toSend.length,
    failed: 0,
    outcomes: [],
  }
  // One batch per (type, value): the worker actions send one request per worker.
  const batches = new Map<string, { type: string; value: number; workers: string[] }>()
  for (const p of toSend) {
    const key = `${p.qualificationTypeId}|${p.value}`
    const batch = batches.get(key) ?? { type: p.qualificationTypeId, value: p.value, workers: [] }
    batch.workers.push(p.workerId)
    batches.set(key, batch)
  }
  const group = hooks.group ?? 25
  let done = 0
  hooks.progress?.(0, toSend.length)
  for (const b of batches.values()) {
    for (let i = 0; i < b.workers.length; i += group) {
      if (hooks.cancelled?.()) throw stopped()
      let outcome: ActionOutcome
      try {
        outcome = await qualifyWorkers(ac, {
          workerIds: b.workers.slice(i, i + group),
          qualificationTypeId: b.type,
          value: b.value,
          notify: true,
        })
      } catch (error) {
        // A request cut short by the stop: the ones answered before it are recorded.
        if (hooks.cancelled?.()) throw stopped()
        throw error
      }
      result.outcomes.push(outcome)
      result.sent += outcome.succeeded
      result.failed += outcome.failed
      done += Math.min(group, b.workers.length - i)
      hooks.progress?.(done, toSend.length)
    }
  }
  return result
}

/** What applying the bands did, in a line. */
export function describeQualifying(r: QualifyResult): string {
  return `${r.sent} sent, ${r.skipped} already sent before, ${r.failed} failed.`
}

/** A stop: every request answered is recorded, so applying the bands again sends the rest. */
function stopped(): CancelledError {
  return new CancelledError(
    'Stopped sending; what was sent is recorded, and applying the bands again sends the rest.',
  )
}
