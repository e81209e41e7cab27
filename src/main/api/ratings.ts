import type { ratingsCalls } from '../../shared/contract/ratings'
import { ratingCounts } from '../db/queries/stats'
import { pastAnnotations } from '../ratings/asOf'
import { localAuthor } from '../ratings/author'
import { parseDay, today } from '../ratings/dates'
import { history } from '../ratings/history'
import { rateWorker } from '../ratings/rate'
import { redoTargetId, undoState, undoTargetId } from '../ratings/revert'
import { rateAsNeeded, recomputeAsJob, revertAsNeeded } from '../tasks/ratingJobs'
import { ratingScale, setRatingScale } from '../ratings/scale'
import { workerTimelineView } from '../ratings/workerView'
import type { Handlers } from './handlers'

export const ratingsHandlers: Handlers<keyof typeof ratingsCalls> = {
  'ratings.scale': (_args, { session }) => ratingScale(session.project().db),
  'ratings.setScale': ({ scale }, { session }) => {
    const result = setRatingScale(session.project().db, scale, localAuthor())
    session.dataChanged()
    return result
  },
  'ratings.rateWorker': ({ workerId, rating, from, note, preview }, { session }) => {
    const result = rateWorker(session.project().db, {
      workerId,
      value: rating,
      from: from === undefined ? today() : parseDay(from),
      author: localAuthor(),
      ...(note ? { note } : {}),
      preview: preview ?? false,
    })
    if (result.changeSet !== null) session.dataChanged()
    return result
  },
  'ratings.rateItems': ({ annotationIds, submissionIds, rating, note, preview }, { session }) => {
    const ids = { annotationIds: annotationIds ?? [], submissionIds: submissionIds ?? [] }
    const who = { value: rating, author: localAuthor(), ...(note ? { note } : {}) }
    return rateAsNeeded(session, {
      ...who,
      target: { kind: 'selection', ...ids },
      preview: preview ?? false,
    })
  },
  'ratings.rateQuery': ({ filter, rating, note, preview }, { session }) => {
    const who = { value: rating, author: localAuthor(), ...(note ? { note } : {}) }
    return rateAsNeeded(session, {
      ...who,
      target: { kind: 'query', filter },
      preview: preview ?? false,
    })
  },
  'ratings.recompute': (_args, { session }) => recomputeAsJob(session),
  'ratings.workerTimeline': ({ workerId }, { session }) =>
    workerTimelineView(session.project().db, workerId),
  'ratings.history': ({ limit, beforeId }, { session }) => ({
    changeSets: history(session.project().db, {
      ...(limit !== undefined ? { limit } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
    }),
  }),
  'ratings.revert': ({ changeSetId, preview }, { session }) =>
    revertAsNeeded(session, changeSetId, localAuthor(), { preview: preview ?? false }),
  'ratings.undoState': (_args, { session }) => undoState(session.project().db),
  'ratings.undo': async (_args, { session }) => {
    const id = undoTargetId(session.project().db)
    return id === null ? null : revertAsNeeded(session, id, localAuthor())
  },
  'ratings.redo': async (_args, { session }) => {
    const id = redoTargetId(session.project().db)
    return id === null ? null : revertAsNeeded(session, id, localAuthor())
  },
  'ratings.counts': ({ asOf }, { session }) => {
    const db = session.project().db
    return { asOf: asOf ?? null, byRating: ratingCounts(db, pastAnnotations(db, asOf)) }
  },
}
