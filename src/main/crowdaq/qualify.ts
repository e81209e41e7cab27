import type { ActionOutcome } from '../../shared/contract/mturk'
import type { QualifyResult } from '../../shared/contract/crowdaq'
import type { Db } from '../db/connection'
import { qualifiedBefore } from '../db/queries/crowdaqAttempts'
import { type ActionContext, qualifyWorkers } from '../mturk/workerActions'
import { type PlannedQualification, gradeExam, plannedQualifications } from './grade'

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
export async function applyBands(ac: ActionContext, examId: string): Promise<QualifyResult> {
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
  for (const b of batches.values()) {
    const outcome: ActionOutcome = await qualifyWorkers(ac, {
      workerIds: b.workers,
      qualificationTypeId: b.type,
      value: b.value,
      notify: true,
    })
    result.outcomes.push(outcome)
    result.sent += outcome.succeeded
    result.failed += outcome.failed
  }
  return result
}
