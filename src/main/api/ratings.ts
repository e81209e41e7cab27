import type { ratingsCalls } from '../../shared/contract/ratings'
import { projectStats } from '../db/queries/stats'
import { localAuthor } from '../ratings/author'
import { parseDay, today } from '../ratings/dates'
import { history } from '../ratings/history'
import { rateFilter, rateSelection } from '../ratings/rateTargets'
import { rateWorker } from '../ratings/rate'
import { redo, revertChangeSet, undo, undoState } from '../ratings/revert'
import { ratingScale, setRatingScale } from '../ratings/scale'
import { workerTimelineView } from '../ratings/workerView'
import type { Handlers } from './handlers'

export const ratingsHandlers: Handlers<keyof typeof ratingsCalls> = {
  'ratings.scale': (_args, { session }) => ratingScale(session.project().db),
  'ratings.setScale': ({ scale }, { session }) => {
    const result = setRatingScale(session.project().db, scale)
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
    const result = rateSelection(
      session.project().db,
      { annotationIds: annotationIds ?? [], submissionIds: submissionIds ?? [] },
      {
        value: rating,
        author: localAuthor(),
        ...(note ? { note } : {}),
        preview: preview ?? false,
      },
    )
    if (result.changeSet !== null) session.dataChanged()
    return result
  },
  'ratings.rateQuery': ({ filter, rating, note, preview }, { session }) => {
    const result = rateFilter(session.project().db, filter, {
      value: rating,
      author: localAuthor(),
      ...(note ? { note } : {}),
      preview: preview ?? false,
    })
    if (result.changeSet !== null) session.dataChanged()
    return result
  },
  'ratings.workerTimeline': ({ workerId }, { session }) =>
    workerTimelineView(session.project().db, workerId),
  'ratings.history': ({ limit, beforeId }, { session }) => ({
    changeSets: history(session.project().db, {
      ...(limit !== undefined ? { limit } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
    }),
  }),
  'ratings.revert': ({ changeSetId, preview }, { session }) => {
    const result = revertChangeSet(session.project().db, changeSetId, {
      author: localAuthor(),
      preview: preview ?? false,
    })
    if (result.changeSet !== null) session.dataChanged()
    return result
  },
  'ratings.undoState': (_args, { session }) => undoState(session.project().db),
  'ratings.undo': (_args, { session }) => {
    const result = undo(session.project().db, localAuthor())
    if (result) session.dataChanged()
    return result
  },
  'ratings.redo': (_args, { session }) => {
    const result = redo(session.project().db, localAuthor())
    if (result) session.dataChanged()
    return result
  },
  'ratings.counts': ({ asOf }, { session }) => {
    const { byRating } = projectStats(session.project().db, asOf === undefined ? {} : { asOf })
    return { asOf: asOf ?? null, byRating }
  },
}
