import type { Transition } from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import type { FileRatingLog, LoggedRow, Pin } from '../db/fileRatingLog'
import { recordEffects } from '../db/queries/changes/history'
import { insertWorkerRating } from '../db/queries/ratings/rows'
import { SOURCE } from '../db/queries/ratings/apply'
import {
  type FileRatingGroup,
  insertItemRatingValues,
  setCachedRatings,
} from '../db/queries/ratings/import'
import { annotationId } from '../db/queries/submissions'
import type { ReconstructionResult } from './importTimelines'
import { planWorker } from './importTimelines'
import { countAtMost } from '../../shared/lists'

const NOTE = 'from imported file'

function annotationIds(e: LoggedRow): number[] {
  const ids: number[] = []
  for (let d = 1; d <= 10; d++)
    if (e.dimensions & (1 << d)) ids.push(annotationId(e.submissionId, d))
  return ids
}

/** A worker's timeline as run starts (ascending) and values: the value of the last start ≤ t. */
interface Steps {
  starts: number[]
  values: number[]
}

function valueAt(steps: Steps | undefined, time: number): number | null {
  if (!steps) return null
  const runs = countAtMost(steps.starts, time)
  return runs === 0 ? null : (steps.values[runs - 1] as number)
}

/**
 * The reconstruction of `reconstructImportedRatings` for an import into a project with no
 * annotations and no ratings before it (see `hasNoRatings`), from the log its writer kept. The
 * rows were written with their file value as the effective rating; only the rows whose rating or
 * source ends up different are rewritten. Rows must not be listed in `rating_pending`. Memory holds
 * one worker's groups and one page of the log at a time, and the timelines' runs.
 */
export function reconstructFromLog(
  db: Db,
  changeSet: { id: number; at: number },
  author: string,
  log: FileRatingLog,
): ReconstructionResult {
  const result: ReconstructionResult = { workers: 0, workerRatings: 0, itemRatings: 0, changed: 0 }
  if (log.length === 0) return result
  // Each worker's timeline from its distinct file values per time, as `fileRatingGroups` reads them.
  const steps = new Map<number, Steps>()
  const conflicts = new Map<number, Set<number>>()
  const plan = (workerId: number, groups: FileRatingGroup[]): void => {
    const { runs, conflicts: at } = planWorker(groups)
    for (const run of runs) {
      insertWorkerRating(db, {
        workerId,
        value: run.value,
        effectiveFrom: run.start,
        recordedAt: changeSet.at,
        author,
        note: NOTE,
        changeSetId: changeSet.id,
      })
    }
    result.workerRatings += runs.length
    result.workers++
    steps.set(workerId, { starts: runs.map((r) => r.start), values: runs.map((r) => r.value) })
    if (at.length > 0) conflicts.set(workerId, new Set(at))
  }
  let groups: FileRatingGroup[] = []
  for (const group of log.groups()) {
    const first = groups[0]
    if (first && first.workerId !== group.workerId) {
      plan(first.workerId, groups)
      groups = []
    }
    groups.push(group)
  }
  if (groups[0]) plan(groups[0].workerId, groups)

  // Item ratings where one worker gave two values at one time (by worker, time, annotation), then
  // where a value has no worker or no time to sit on (by annotation); every other rated row is
  // already right, and an unrated row takes its worker's timeline.
  const counts = new Map<number, number>()
  for (const page of log.pages()) {
    const updates: [number, number | null, number][] = []
    for (const e of page) {
      const ids = annotationIds(e)
      let rating: number | null
      let source: number
      const on =
        e.workerId !== null && e.submittedAt !== null
          ? { workerId: e.workerId, submittedAt: e.submittedAt }
          : undefined
      const conflict =
        e.value !== null &&
        on !== undefined &&
        conflicts.get(on.workerId)?.has(on.submittedAt) === true
      if (e.value !== null && (conflict || on === undefined)) {
        const value = e.value
        const pins: Pin[] = ids.map((id) => ({ annotationId: id, value }))
        log.pin(pins, conflict ? on : undefined)
        rating = value
        source = SOURCE.item
      } else {
        rating = on ? valueAt(steps.get(on.workerId), on.submittedAt) : null
        source = rating === null ? SOURCE.unrated : SOURCE.worker
      }
      const written = e.value === null ? SOURCE.unrated : SOURCE.worker
      if (rating !== e.value || source !== written) {
        for (const id of ids) updates.push([id, rating, source])
      }
      if (rating !== null) counts.set(rating, (counts.get(rating) ?? 0) + ids.length)
    }
    setCachedRatings(db, updates)
  }
  const by = { changeSetId: changeSet.id, at: changeSet.at, author, note: NOTE }
  result.itemRatings = insertItemRatingValues(db, log.pins(), by)

  // Every new annotation counted as unrated before: the effects are its final ratings.
  const transitions: Transition[] = [...counts]
    .map(([to, count]) => ({ from: null, to, count }))
    .sort((a, b) => b.count - a.count || (b.to ?? 0) - (a.to ?? 0))
  result.changed = transitions.reduce((n, t) => n + t.count, 0)
  recordEffects(db, changeSet.id, result.changed, transitions)
  return result
}
