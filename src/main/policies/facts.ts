import { formatDay } from '../../shared/filter'
import type { Db } from '../db/connection'
import { auditResults } from '../db/queries/audits'
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
 * `audits` holds every audit with at least one item judged.
 */

interface RatingCountFact {
  rating: number | null
  submissions: number
  annotations: number
}

interface WorkerFact {
  id: string
  submissions: number
  annotations: number
  firstSubmission: string | null
  lastSubmission: string | null
  byRating: RatingCountFact[]
}

interface AuditFact {
  id: number
  name: string
  workers: string[] | null
  rating: number | null
  sampled: number
  passed: number
  precision: number
}

export interface FactsData {
  scale: { value: number; label: string }[]
  ratings: RatingCountFact[]
  workers: WorkerFact[]
  audits: AuditFact[]
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
    audits: auditFacts(db),
    firstSubmission: range.first,
    lastSubmission: range.last,
  }
}

/**
 * Audits as a policy reads them: who and which rating the sampled query covered (a query of one
 * rating names it; any other is null), and the share of judged items that passed.
 */
function auditFacts(db: Db): AuditFact[] {
  return auditResults(db).flatMap((audit): AuditFact[] => {
    if (audit.precision === null) return []
    const ratings = audit.filter.ratings ?? []
    const only = ratings.length === 1 ? ratings[0] : undefined
    return [
      {
        id: audit.id,
        name: audit.name,
        workers: audit.filter.workers ?? null,
        rating: typeof only === 'number' ? only : null,
        sampled: audit.yes + audit.no,
        passed: audit.yes,
        precision: audit.precision,
      },
    ]
  })
}

/** The tables the sandbox asks for lazily, as JSON. */
export function lazyFact(db: Db, kind: string): string {
  if (kind === 'byDay') return JSON.stringify(workerDays(db))
  if (kind === 'byDimension') return JSON.stringify(workerDimensions(db))
  return '{}'
}
