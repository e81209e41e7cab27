import type { TriageMark, TriageQueue } from '../../shared/contract/triage'
import { dayStart } from '../../shared/filter'
import { smallestKeys } from '../../shared/stats/sampleKey'
import { plural } from '../../shared/text'
import { randomSeed } from '../audits/audits'
import { recordChange } from '../changes/entries'
import type { Db } from '../db/connection'
import { createChangeSet } from '../db/queries/changes/sets'
import { claimRefusal, positionOf } from '../db/queries/team/claims'
import {
  currentQueueId,
  insertQueue,
  rangeSubmissions,
  requireItem,
  requireQueuedMark,
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
      const range = options.from === options.to ? options.from : `${options.from} to ${options.to}`
      const changeSet = createChangeSet(db, {
        kind: 'triage',
        author: options.author,
        description: `Triage queue of ${range}: ${plural(submissionIds.length, 'submission')} (${Number((share * 100).toFixed(2))} % of each worker's, seed ${seed})`,
      })
      return insertQueue(db, {
        ...options,
        share,
        seed,
        submissionIds,
        changeSetId: changeSet.id,
        at: changeSet.at,
      })
    })
    .immediate()
  return triageQueue(db, id)
}

export function currentQueue(db: Db): TriageQueue | null {
  const id = currentQueueId(db)
  return id === null ? null : triageQueue(db, id)
}

const MARK_WORDS: Record<TriageMark, string> = {
  good: 'good',
  'needs-work': 'needs work',
  bad: 'bad',
}

/** "submission 12, dimension 3" */
function annotationWords(annotationId: number): string {
  return `submission ${Math.floor(annotationId / 16)}, dimension ${annotationId % 16}`
}

interface MarkChange {
  queueId: number
  annotationId: number
  /** null clears the mark. */
  mark: TriageMark | null
  /** The mark's note; left out, a mark keeps the note it had. */
  note?: string | undefined
  author: string
}

/**
 * In a team project whose queue is split between reviewers, a member reviews only the items they
 * claimed, so no item is reviewed twice.
 */
function requireUnclaimed(db: Db, queueId: number, position: number | undefined): void {
  const refused = position === undefined ? undefined : claimRefusal(db, queueId, position)
  if (refused === undefined) return
  throw new UserError({
    type: 'conflict',
    code: 'claimed-by-another',
    message:
      refused.holder === null
        ? `Item ${position} of triage queue ${queueId} is not yours to review: the queue is split between reviewers; claim it first.`
        : `Item ${position} of triage queue ${queueId} is ${refused.holder}'s to review (claimed on the team's server).`,
    field: 'position',
  })
}

/** Marks a queued annotation (or clears its mark) as one change set; the same mark again records nothing. */
export function markAnnotation(db: Db, change: MarkChange): TriageQueue {
  const { queueId, annotationId, mark } = change
  db.transaction(() => {
    const was = requireQueuedMark(db, queueId, annotationId)
    requireUnclaimed(db, queueId, positionOf(db, queueId, annotationId))
    const value = mark === null ? null : { mark, note: change.note ?? was?.note ?? '' }
    if (value?.mark === was?.mark && value?.note === was?.note) return
    const where = `${annotationWords(annotationId)} (triage queue ${queueId})`
    const description = value
      ? `Marked ${MARK_WORDS[value.mark]}: ${where}${value.note ? `, note “${value.note}”` : ''}`
      : `Cleared the mark: ${where}`
    recordChange(db, { kind: 'triage', author: change.author, description }, [
      { subject: 'triage.mark', key: { queue: queueId, annotation: annotationId }, value },
    ])
  }).immediate()
  return triageQueue(db, queueId)
}

/** Queues (or with '' withdraws) a feedback message for the item's worker, as one change set. */
export function queueFeedback(
  db: Db,
  change: { queueId: number; position: number; feedback: string; author: string },
): TriageQueue {
  const { queueId, position, feedback } = change
  db.transaction(() => {
    const item = requireItem(db, queueId, position)
    requireUnclaimed(db, queueId, position)
    if (item.feedback === feedback) return
    const worker = item.workerId ?? 'the worker'
    const description = feedback
      ? `Feedback for ${worker} queued: item ${position} of triage queue ${queueId}`
      : `Feedback for ${worker} withdrawn: item ${position} of triage queue ${queueId}`
    recordChange(db, { kind: 'triage', author: change.author, description }, [
      {
        subject: 'triage.feedback',
        key: { queue: queueId, position },
        value: feedback === '' ? null : feedback,
      },
    ])
  }).immediate()
  return triageQueue(db, queueId)
}

/** Marks an item reviewed (or not) as one change set; the queue is finished once all are. */
export function markReviewed(
  db: Db,
  change: { queueId: number; position: number; reviewed: boolean; author: string },
): TriageQueue {
  const { queueId, position, reviewed } = change
  db.transaction(() => {
    const item = requireItem(db, queueId, position)
    requireUnclaimed(db, queueId, position)
    if ((item.reviewedAt !== null) === reviewed) return
    const where = `item ${position} of triage queue ${queueId}`
    const description = reviewed ? `Reviewed ${where}` : `Back to unreviewed: ${where}`
    // The time reviewed is the change set's own, so every replica stores the same.
    recordChange(db, { kind: 'triage', author: change.author, description }, (at) => [
      {
        subject: 'triage.reviewed',
        key: { queue: queueId, position },
        value: reviewed ? at : null,
      },
    ])
  }).immediate()
  return triageQueue(db, queueId)
}
