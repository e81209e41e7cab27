import type { Transition } from '../../shared/contract/ratings'
import { type Db, TempStore, withPragmas } from '../db/connection'
import { NOW, allWorkerIds, workerRatingsInForce } from '../db/queries/ratings/rows'
import {
  applyTargets,
  applyWorkerSegments,
  computeTargets,
  fillSegments,
  mergeTransitions,
  selectionWorkers,
  trackedTransitions,
} from '../db/queries/ratings/apply'
import { recomputeAllRatings } from '../db/queries/ratings/recompute'
import { loneWorkerRating } from '../db/queries/team/state'
import type { Segment } from '../db/queries/ratings/segments'
import { changedSegments, segments, timelinesByWorker } from './timeline'
import { QUIET, type WriteHooks, step } from '../jobs/writeHooks'

/**
 * Keeps `annotations.rating` equal to the effective rating: latest item rating in force, else the
 * worker's rating in force at the submission time, else unrated.
 */

/** The worker's timeline from the ratings in force now (or at `asOf`). */
export function workerTimeline(db: Db, workerId: number, asOf = NOW): Segment[] {
  return segments(workerRatingsInForce(db, [workerId], asOf))
}

/** After the worker's rating rows changed: rewrites only the rows whose timeline value moved. */
export function applyWorkerChange(db: Db, workerId: number, before: readonly Segment[]): void {
  applyWorkerSegments(db, workerId, changedSegments(before, workerTimeline(db, workerId)))
}

/** The same for a change set that touches nothing else: untracked, the writes are the counts. */
export function applyLoneWorkerChange(
  db: Db,
  workerId: number,
  before: readonly Segment[],
): { changed: number; transitions: Transition[] } {
  const moved = changedSegments(before, workerTimeline(db, workerId))
  const transitions = applyWorkerSegments(db, workerId, moved, { track: false })
  return { changed: totalChanged(transitions), transitions }
}

/**
 * A change set written whole (pulled from the team's log) that holds one worker rating and rates
 * nothing else: its effects written as the local rating writes them, the pieces of the worker's
 * timeline it changed. Returns false for any other change set, which the caller recomputes.
 */
export function applyLoneWorkerRating(db: Db, changeSetId: number): boolean {
  const rating = loneWorkerRating(db, changeSetId)
  if (!rating) return false
  const rows = workerRatingsInForce(db, [rating.workerId])
  const before = segments(rows.filter((r) => r.id !== rating.id))
  applyWorkerSegments(db, rating.workerId, changedSegments(before, segments(rows)), {
    track: false,
  })
  return true
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

/**
 * Rebuilds the whole cache; returns how many rows were rewritten (0 when it was consistent).
 * `bulkFrom` lowers the row count from which it rewrites in bulk (tests).
 */
export function recomputeAll(
  db: Db,
  options: { bulkFrom?: number } = {},
  hooks: WriteHooks = QUIET,
): number {
  step(hooks, 'Reading worker timelines')
  const workers = allWorkerIds(db)
  const timelines = timelinesByWorker(workers, workerRatingsInForce(db, 'all'))
  return recomputeAllRatings(db, timelines, workers, options, (detail) => step(hooks, detail))
}

/**
 * `recomputeAll` as a job of its own, in one immediate transaction. A wiped cache rewrites every
 * row and rebuilds the rating indexes: their sort runs in temporary files, not in memory, where it
 * grows with the rows (229 → 218 MB peak at a million annotations).
 */
export function recomputeEverything(db: Db, hooks: WriteHooks = QUIET): number {
  return withPragmas(db, { temp_store: TempStore.file }, () =>
    db.transaction(() => recomputeAll(db, {}, hooks)).immediate(),
  )
}

export function totalChanged(transitions: readonly Transition[]): number {
  return transitions.reduce((n, t) => n + t.count, 0)
}

/** Sums the outcomes of passes over disjoint rows into one. */
export function mergeChanges(parts: readonly { transitions: readonly Transition[] }[]): {
  changed: number
  transitions: Transition[]
} {
  const transitions = mergeTransitions(parts.flatMap((p) => p.transitions))
  return { changed: totalChanged(transitions), transitions }
}

/** What moved since tracking began, compared old value to final value per annotation. */
export function trackedChanges(db: Db): { changed: number; transitions: Transition[] } {
  const transitions = trackedTransitions(db)
  return { changed: totalChanged(transitions), transitions }
}
