import type { Transition } from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import { NOW, workerRatingsInForce } from '../db/queries/ratingRows'
import {
  applyTargets,
  applyWorkerSegments,
  computeTargets,
  fillSegments,
  previewWorkerSegments,
  selectionWorkers,
  trackedTransitions,
} from '../db/queries/ratingsApply'
import { recomputeAllRatings } from '../db/queries/ratingsRecompute'
import { type Segment, changedSegments, segments, timelinesByWorker } from './timeline'

/**
 * Keeps `annotations.rating` equal to the effective rating: latest item rating in force, else the
 * worker's rating in force at the submission time, else unrated.
 */

/** The worker's timeline from the ratings in force now (or at `asOf`). */
export function workerTimeline(db: Db, workerId: number, asOf = NOW): Segment[] {
  return segments(workerRatingsInForce(db, [workerId], asOf))
}

/** After the worker's rating rows changed: rewrites only the rows whose timeline value moved. */
export function applyWorkerChange(db: Db, workerId: number, before: readonly Segment[]): number {
  return applyWorkerSegments(db, workerId, changedSegments(before, workerTimeline(db, workerId)))
}

/** The same for a change set that touches nothing else: counts first, then writes untracked. */
export function applyLoneWorkerChange(
  db: Db,
  workerId: number,
  before: readonly Segment[],
): { changed: number; transitions: Transition[] } {
  const moved = changedSegments(before, workerTimeline(db, workerId))
  const transitions = previewWorkerSegments(db, workerId, moved)
  applyWorkerSegments(db, workerId, moved, { track: false })
  return { changed: totalChanged(transitions), transitions }
}

/** Recomputes the selected annotations (temp selection) from scratch and writes what differs. */
export function refreshSelection(db: Db): number {
  const workers = selectionWorkers(db)
  fillSegments(db, timelinesByWorker(workers, workerRatingsInForce(db, workers)))
  computeTargets(db, NOW)
  return applyTargets(db)
}

/** Fills `rating_target` for the selection as it will be after its item ratings are cleared. */
export function targetsWithoutItems(db: Db): void {
  const workers = selectionWorkers(db)
  fillSegments(db, timelinesByWorker(workers, workerRatingsInForce(db, workers)))
  computeTargets(db, NOW, { items: false })
}

/** Rebuilds the whole cache; returns how many rows were rewritten (0 when it was consistent). */
export function recomputeAll(db: Db): number {
  const rows = workerRatingsInForce(db, 'all')
  return recomputeAllRatings(db, timelinesByWorker([], rows))
}

export function totalChanged(transitions: readonly Transition[]): number {
  return transitions.reduce((n, t) => n + t.count, 0)
}

/** What moved since tracking began, compared old value to final value per annotation. */
export function trackedChanges(db: Db): { changed: number; transitions: Transition[] } {
  const transitions = trackedTransitions(db)
  return { changed: totalChanged(transitions), transitions }
}
