import type { Db } from '../db/connection'
import { createChangeSet } from '../db/queries/changes/sets'
import { recordEffects } from '../db/queries/changes/history'
import {
  type FileRatingGroup,
  clearPending,
  fileRatingGroups,
  annotationsBetween,
  pendingAnnotations,
  pendingAt,
  pendingCount,
  pinMismatches,
  trackPendingAsUnrated,
  unplaceablePending,
} from '../db/queries/ratings/import'
import {
  NOW,
  insertItemRatings,
  insertWorkerRating,
  workerRatingsInForce,
} from '../db/queries/ratings/rows'
import {
  addToSelection,
  applyTargets,
  beginTracking,
  computeTargets,
  fillSegments,
  fillSelection,
  selectionWorkers,
} from '../db/queries/ratings/apply'
import { sql } from '../db/sql'
import { trackedChanges } from './effective'
import type { Change } from '../db/queries/ratings/segments'
import {
  type TimelineRow,
  changedSegments,
  ratingAt,
  segments,
  timelinesByWorker,
} from './timeline'

export interface ReconstructionResult {
  workers: number
  workerRatings: number
  itemRatings: number
  changed: number
}

/** One worker's file values as timeline starts; same-time disagreements kept apart. */
export function planWorker(groups: readonly FileRatingGroup[]): {
  runs: { start: number; value: number }[]
  conflicts: number[]
} {
  const valuesAt = new Map<number, Set<number>>()
  for (const g of groups) {
    const set = valuesAt.get(g.submittedAt) ?? new Set<number>()
    set.add(g.value)
    valuesAt.set(g.submittedAt, set)
  }
  const conflicts = [...valuesAt].filter(([, v]) => v.size > 1).map(([t]) => t)
  const runs: { start: number; value: number }[] = []
  for (const [time, values] of [...valuesAt].sort((a, b) => a[0] - b[0])) {
    if (values.size > 1) continue
    const value = [...values][0] as number
    if (runs[runs.length - 1]?.value !== value) runs.push({ start: time, value })
  }
  return { runs, conflicts }
}

/**
 * Turns the file ratings of annotations written since the last run (`rating_pending`: an import,
 * synthetic data, any writer) into worker timelines, inside the import's transaction and change
 * set. A worker's consecutive submissions with one value become one rating committed at the first
 * of them; where one worker has two values at one time, those rows keep item ratings. Afterwards
 * every new annotation's effective rating is its file value and no earlier rating has moved:
 * anything the timelines cannot express is pinned by an item rating.
 */
export function reconstructImportedRatings(
  db: Db,
  changeSet: { id: number; at: number },
  author = 'import',
): ReconstructionResult {
  const result: ReconstructionResult = { workers: 0, workerRatings: 0, itemRatings: 0, changed: 0 }
  if (pendingCount(db) === 0) return result
  const byWorker = new Map<number, FileRatingGroup[]>()
  for (const g of fileRatingGroups(db)) {
    const list = byWorker.get(g.workerId)
    if (list) list.push(g)
    else byWorker.set(g.workerId, [g])
  }
  const workers = [...byWorker.keys()]
  const existing = timelineRowsByWorker(workerRatingsInForce(db, workers))
  const written = { id: changeSet.id, at: changeSet.at, author }
  const moved: { workerId: number; changes: Change[] }[] = []
  for (const [workerId, groups] of byWorker) {
    const plan = planWorker(groups)
    const rows: TimelineRow[] = existing.get(workerId) ?? []
    const before = segments(rows)
    for (const run of plan.runs) {
      // A run that only repeats the rating already in force adds nothing to the timeline.
      if (ratingAt(rows, run.start) === run.value) continue
      const id = insertWorkerRating(db, {
        workerId,
        value: run.value,
        effectiveFrom: run.start,
        recordedAt: written.at,
        author,
        note: 'from imported file',
        changeSetId: written.id,
      })
      rows.push({ id, value: run.value, effectiveFrom: run.start, recordedAt: written.at })
      result.workerRatings++
    }
    for (const time of plan.conflicts) {
      result.itemRatings += insertItems(db, pendingAt(workerId, time), written)
    }
    moved.push({ workerId, changes: changedSegments(before, segments(rows)) })
  }
  result.itemRatings += insertItems(db, unplaceablePending(), written)

  // What to recompute: every new annotation, and earlier ones only where a timeline moved.
  fillSelection(db, pendingAnnotations)
  for (const { workerId, changes } of moved) {
    for (const c of changes) addToSelection(db, annotationsBetween(workerId, c.start, c.until))
  }
  beginTracking(db)
  trackPendingAsUnrated(db)
  const scopeWorkers = selectionWorkers(db)
  fillSegments(db, timelinesByWorker(scopeWorkers, workerRatingsInForce(db, scopeWorkers, NOW)))
  computeTargets(db, NOW)
  result.itemRatings += pinMismatches(db, written, author)
  applyTargets(db)
  const { changed, transitions } = trackedChanges(db)
  recordEffects(db, changeSet.id, changed, transitions)
  clearPending(db)
  result.workers = workers.length
  result.changed = changed
  return result
}

/**
 * Reconstructs annotations some writer left pending (synthetic data, a writer that does not call
 * the reconstruction) in a change set of their own, so rating changes never start from a cache
 * the rating tables cannot explain. Call inside the transaction of a rating change.
 */
export function settlePending(db: Db, author: string): void {
  if (pendingCount(db) === 0) return
  const changeSet = createChangeSet(db, {
    kind: 'import',
    author,
    description: 'Ratings from files of annotations written earlier',
  })
  reconstructImportedRatings(db, changeSet, author)
}

function timelineRowsByWorker(
  rows: readonly (TimelineRow & { workerId: number })[],
): Map<number, TimelineRow[]> {
  const out = new Map<number, TimelineRow[]>()
  for (const row of rows) {
    const list = out.get(row.workerId)
    if (list) list.push(row)
    else out.set(row.workerId, [row])
  }
  return out
}

function insertItems(
  db: Db,
  annotations: ReturnType<typeof unplaceablePending>,
  by: { id: number; at: number; author: string },
): number {
  return insertItemRatings(db, {
    annotations,
    value: sql.raw('s.value'),
    recordedAt: by.at,
    author: by.author,
    note: 'from imported file',
    changeSetId: by.id,
  })
}
