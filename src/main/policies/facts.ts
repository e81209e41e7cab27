import { formatDay } from '../../shared/filter'
import type { Db } from '../db/connection'
import {
  annotationsByWorkerAndRating,
  submissionRange,
  submissionsByWorker,
  workerDays,
  workerDimensions,
} from '../db/queries/policies'
import { ratingScale } from '../ratings/scale'

/**
 * The facts a policy reads: aggregates of the project as JSON for the sandbox. The small ones are
 * read up front; the per-day and per-dimension tables only when the script first asks for them.
 * Audits do not exist yet, so `audits` is empty.
 */

export interface RatingCountFact {
  rating: number | null
  submissions: number
  annotations: number
}

export interface WorkerFact {
  id: string
  submissions: number
  annotations: number
  firstSubmission: string | null
  lastSubmission: string | null
  byRating: RatingCountFact[]
}

export interface FactsData {
  scale: { value: number; label: string }[]
  ratings: RatingCountFact[]
  workers: WorkerFact[]
  audits: never[]
  firstSubmission: string | null
  lastSubmission: string | null
}

const byRatingDesc = (a: RatingCountFact, b: RatingCountFact): number =>
  (b.rating ?? -Infinity) - (a.rating ?? -Infinity)

export function readFacts(db: Db): FactsData {
  const byWorker = new Map<string, RatingCountFact[]>()
  const totals = new Map<number | null, RatingCountFact>()
  for (const row of annotationsByWorkerAndRating(db)) {
    const count = { rating: row.rating, submissions: row.submissions, annotations: row.annotations }
    if (row.externalId !== null) {
      const list = byWorker.get(row.externalId)
      if (list) list.push(count)
      else byWorker.set(row.externalId, [count])
    }
    const total = totals.get(row.rating)
    if (total) {
      total.submissions += row.submissions
      total.annotations += row.annotations
    } else {
      totals.set(row.rating, { ...count })
    }
  }
  const workers = submissionsByWorker(db).map((w): WorkerFact => {
    const byRating = (byWorker.get(w.externalId) ?? []).sort(byRatingDesc)
    return {
      id: w.externalId,
      submissions: w.submissions,
      annotations: byRating.reduce((n, r) => n + r.annotations, 0),
      firstSubmission: w.first === null ? null : formatDay(w.first),
      lastSubmission: w.last === null ? null : formatDay(w.last),
      byRating,
    }
  })
  const range = submissionRange(db)
  return {
    scale: ratingScale(db).map((l) => ({ value: l.value, label: l.label })),
    ratings: [...totals.values()].sort(byRatingDesc),
    workers,
    audits: [],
    firstSubmission: range.first,
    lastSubmission: range.last,
  }
}

/** The tables the sandbox asks for lazily, as JSON. */
export function lazyFact(db: Db, kind: string): string {
  if (kind === 'byDay') return JSON.stringify(workerDays(db))
  if (kind === 'byDimension') return JSON.stringify(workerDimensions(db))
  return '{}'
}
