import type { TriageMark, TriageQueue } from '../../shared/contract/triage'
import { dayStart } from '../../shared/filter'
import { smallestKeys } from '../../shared/stats/sampleKey'
import { randomSeed } from '../audits/audits'
import type { Db } from '../db/connection'
import {
  currentQueueId,
  insertQueue,
  rangeSubmissions,
  setFeedback,
  setMark,
  setReviewed,
  triageQueue,
  workerFacts,
} from '../db/queries/triage'
import { UserError } from '../../shared/contract/errors'
import { triageSettings } from './settings'

/** How many of a worker's `n` new submissions a queue of `share` takes: at least one. */
export function sampleSize(n: number, share: number): number {
  return Math.min(n, Math.max(1, Math.round(n * share)))
}

export interface StartQueue {
  from: string
  to: string
  share?: number
  seed?: number
  author: string
}

/**
 * A triage queue: of each worker's submissions in the range, a seeded sample of `share` (at
 * least one), worker by worker (busiest first), each worker's sample in its seeded order.
 */
export function startQueue(db: Db, options: StartQueue): TriageQueue {
  const share = options.share ?? triageSettings(db).queueShare
  const seed = options.seed ?? randomSeed()
  const id = db
    .transaction(() => {
      const subs = rangeSubmissions(db, dayStart(options.from), dayStart(options.to) + 86_400)
      const byWorker = new Map<number, number[]>()
      for (const s of subs) {
        const list = byWorker.get(s.workerId)
        if (list) list.push(s.submissionId)
        else byWorker.set(s.workerId, [s.submissionId])
      }
      if (byWorker.size === 0) {
        throw new UserError({
          type: 'invalid-argument',
          code: 'nothing-to-triage',
          message: `No submissions from ${options.from} to ${options.to}.`,
          field: 'from',
        })
      }
      const names = workerFacts(db, [...byWorker.keys()])
      const order = [...byWorker.entries()].sort(
        ([a, x], [b, y]) =>
          y.length - x.length ||
          (names.get(a)?.externalId ?? '').localeCompare(names.get(b)?.externalId ?? ''),
      )
      const submissionIds = order.flatMap(([, ids]) =>
        smallestKeys(ids, seed, sampleSize(ids.length, share)),
      )
      return insertQueue(db, { ...options, share, seed, submissionIds })
    })
    .immediate()
  return triageQueue(db, id)
}

export function currentQueue(db: Db): TriageQueue | null {
  const id = currentQueueId(db)
  return id === null ? null : triageQueue(db, id)
}

export function markAnnotation(
  db: Db,
  queueId: number,
  annotationId: number,
  mark: TriageMark | null,
  note?: string,
): TriageQueue {
  db.transaction(() => setMark(db, queueId, annotationId, mark, note)).immediate()
  return triageQueue(db, queueId)
}

export function queueFeedback(
  db: Db,
  queueId: number,
  position: number,
  feedback: string,
): TriageQueue {
  db.transaction(() => setFeedback(db, queueId, position, feedback)).immediate()
  return triageQueue(db, queueId)
}

export function markReviewed(
  db: Db,
  queueId: number,
  position: number,
  reviewed: boolean,
): TriageQueue {
  db.transaction(() => setReviewed(db, queueId, position, reviewed)).immediate()
  return triageQueue(db, queueId)
}
