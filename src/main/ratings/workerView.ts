import { UserError } from '../../shared/contract/errors'
import type { WorkerTimeline } from '../../shared/contract/ratings'
import { ratingKey } from '../../shared/ratings/key'
import type { Db } from '../db/connection'
import { workerById, workerRatingHistory } from '../db/queries/ratings/rows'
import { dailyVolume } from '../db/queries/ratings/timeline'
import { formatDay } from './dates'
import { BEGINNING, END, segments } from './timeline'

/** The worker panel's chart: every rating recorded, the steps in force, and daily volume. */
export function workerTimelineView(db: Db, workerId: number): WorkerTimeline {
  const worker = workerById(db, workerId)
  if (!worker) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-worker',
      message: `No worker ${workerId}.`,
      field: 'workerId',
    })
  }
  const history = workerRatingHistory(db, workerId)
  const steps = segments(history.filter((r) => !r.retracted)).map((s) => ({
    from: s.start === BEGINNING ? null : formatDay(s.start),
    until: s.until === END ? null : formatDay(s.until),
    value: s.value,
  }))
  return {
    worker,
    ratings: history.map((r) => ({
      id: r.id,
      value: r.value,
      commitDate: formatDay(r.effectiveFrom),
      effectiveFrom: r.effectiveFrom,
      recordedAt: r.recordedAt,
      author: r.author,
      note: r.note,
      changeSet: r.changeSet,
      retracted: r.retracted,
    })),
    steps,
    volume: dailyVolume(db, workerId).map((d) => ({
      day: formatDay(d.day),
      submissions: d.submissions,
      annotations: d.annotations,
      byRating: Object.fromEntries(d.byRating.map((b) => [ratingKey(b.rating), b.n])),
    })),
  }
}
