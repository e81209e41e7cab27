import { UserError } from '../../shared/contract/errors'
import type {
  ChangeSetKind,
  RatingResult,
  Transition,
  UndoState,
} from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import { createChangeSet } from '../db/queries/changes/sets'
import {
  type ChangeSetRow,
  changeSetById,
  changeSetIdsOfKinds,
  recordEffects,
  revertLinks,
} from '../db/queries/changes/history'
import {
  changeSetItemAnnotations,
  changeSetRows,
  insertCompensatingRows,
} from '../db/queries/ratings/rows'
import { beginTracking, fillSelection } from '../db/queries/ratings/apply'
import {
  applyLoneWorkerChange,
  applyWorkerChange,
  mergeChanges,
  refreshSelection,
  trackedChanges,
  workerTimeline,
} from './effective'
import { isRevertable, revertOutcome, revertedByMap, summarizeChangeSet } from './history'
import { settlePending } from './importTimelines'
import { QUIET, type WriteHooks, step } from '../jobs/writeHooks'
import { UNDOABLE_SUBJECTS } from '../changes/entries'
import { revertEntries } from '../changes/revert'
import { hasEntries } from '../db/queries/changes/entries'

/** Ratings undo and redo step through; imports are reverted by name only. */
const UNDOABLE_RATINGS: readonly ChangeSetKind[] = ['manual', 'bulk', 'policy']
/** Change sets whose triage marks or audit verdicts undo and redo step through as well. */
const UNDOABLE_ENTRIES: readonly ChangeSetKind[] = ['triage', 'audit']
const UNDOABLE: readonly ChangeSetKind[] = [...UNDOABLE_RATINGS, ...UNDOABLE_ENTRIES]

/** Whether undo takes this change set: it rated, or marked or judged, something. */
function isUndoable(db: Db, id: number, kind: ChangeSetKind): boolean {
  if (UNDOABLE_ENTRIES.includes(kind)) return hasEntries(db, id, UNDOABLE_SUBJECTS)
  const rows = changeSetRows(db, id)
  // A HALIE rating is a manual change set of entries.
  return (
    rows.workerRatings + rows.itemRatings + rows.retractions > 0 ||
    hasEntries(db, id, UNDOABLE_SUBJECTS)
  )
}

class Rollback extends Error {
  constructor(readonly result: RatingResult) {
    super('preview')
  }
}

/**
 * Reverts a change set by adding rows: its rating rows are retracted and its retractions turned
 * around, then exactly the annotations they touched are recomputed. Reverting a revert re-applies.
 */
export function revertChangeSet(
  db: Db,
  id: number,
  by: { author: string; preview?: boolean },
  hooks: WriteHooks = QUIET,
): RatingResult {
  const target = changeSetById(db, id)
  if (!target)
    throw new UserError({
      type: 'not-found',
      code: 'no-such-change-set',
      message: `No change set ${id}.`,
    })
  const revertedBy = revertedByMap(db).get(id)
  if (revertedBy !== undefined) {
    throw new UserError({
      type: 'conflict',
      code: 'already-reverted',
      message: `Change set ${id} is already reverted by ${revertedBy}; revert ${revertedBy} to re-apply it.`,
    })
  }
  // A revert that found nothing to put back holds no entries; its chain's first change names the keys.
  if (hasEntries(db, id) || hasEntries(db, revertOutcome(db, target).original.id))
    return revertEntries(db, target, by)
  const rows = changeSetRows(db, id)
  if (rows.workerRatings + rows.itemRatings + rows.retractions === 0) {
    throw new UserError({
      type: 'conflict',
      code: 'nothing-to-revert',
      message: isRevertable(db, target)
        ? `Change set ${id} changed no ratings.`
        : `Change set ${id} (${target.description}) only added what it made; it cannot be reverted.`,
    })
  }
  const apply = (): RatingResult => {
    step(hooks, 'Retracting its ratings')
    settlePending(db, by.author)
    const before = new Map(rows.workers.map((w) => [w, workerTimeline(db, w)]))
    const changeSet = createChangeSet(db, {
      kind: 'revert',
      author: by.author,
      description: revertOutcome(db, target).description,
      reverts: id,
    })
    const written = insertCompensatingRows(db, id, changeSet)
    let outcome: { changed: number; transitions: Transition[] }
    step(hooks, 'Finding the annotations it touched')
    const touched = fillSelection(db, changeSetItemAnnotations(id))
    step(hooks, 'Recomputing effective ratings', 0, touched || null)
    if (touched === 0) {
      // Workers' rows are disjoint and each moves once: count first, write untracked.
      outcome = mergeChanges(
        [...before].map(([workerId, timeline]) => applyLoneWorkerChange(db, workerId, timeline)),
      )
    } else {
      beginTracking(db)
      for (const [workerId, timeline] of before) applyWorkerChange(db, workerId, timeline)
      refreshSelection(db)
      outcome = trackedChanges(db)
    }
    const { changed, transitions } = outcome
    step(hooks, 'Recording what moved', touched, touched || null)
    recordEffects(db, changeSet.id, changed, transitions)
    return { preview: false, changeSet: changeSet.id, changed, rows: written, transitions }
  }
  if (!by.preview) return db.transaction(apply).immediate()
  // Exact for any mix of worker and item rows: do it, read the outcome, roll it all back.
  try {
    db.transaction(() => {
      throw new Rollback(apply())
    }).immediate()
  } catch (error) {
    if (error instanceof Rollback) return { ...error.result, preview: true, changeSet: null }
    throw error
  }
  throw new Error('unreachable')
}

/**
 * Change sets of the kinds undo looks at, newest first, read a page at a time: a project holds a
 * change set per triage mark, and undo mostly stops at the first.
 */
function* undoCandidates(db: Db): Generator<{ id: number; kind: ChangeSetKind }> {
  const limit = 100
  let beforeId: number | undefined
  for (;;) {
    const page = changeSetIdsOfKinds(db, UNDOABLE, { limit, beforeId })
    yield* page
    if (page.length < limit) return
    beforeId = page[page.length - 1]?.id
  }
}

function undoTarget(db: Db, revertedBy: ReadonlyMap<number, number>): ChangeSetRow | null {
  for (const { id, kind } of undoCandidates(db)) {
    if (revertedBy.has(id)) continue
    if (isUndoable(db, id, kind)) return changeSetById(db, id) ?? null
  }
  return null
}

/** The latest revert in force of an undoable change set, unless an undoable change came after it. */
function redoRevert(
  db: Db,
  revertedBy: ReadonlyMap<number, number>,
): { revert: number; target: ChangeSetRow } | null {
  let newestEdit = 0
  for (const c of undoCandidates(db)) {
    if (!isUndoable(db, c.id, c.kind)) continue
    newestEdit = c.id
    break
  }
  for (const link of revertLinks(db)) {
    if (link.id < newestEdit) return null
    if (revertedBy.has(link.id)) continue
    const target = changeSetById(db, link.reverts)
    if (target && UNDOABLE.includes(target.kind) && isUndoable(db, target.id, target.kind))
      return { revert: link.id, target }
  }
  return null
}

export function undoState(db: Db): UndoState {
  const revertedBy = revertedByMap(db)
  const undo = undoTarget(db, revertedBy)
  const redo = redoRevert(db, revertedBy)
  return {
    undo: undo && summarizeChangeSet(undo, revertedBy, true),
    redo: redo && summarizeChangeSet(redo.target, revertedBy, true),
  }
}

/** The change set undo would revert, if any. */
export function undoTargetId(db: Db): number | null {
  return undoTarget(db, revertedByMap(db))?.id ?? null
}

/** The revert redo would revert (re-applying what it undid), if any. */
export function redoTargetId(db: Db): number | null {
  return redoRevert(db, revertedByMap(db))?.revert ?? null
}

export function undo(db: Db, author: string): RatingResult | null {
  const id = undoTargetId(db)
  return id === null ? null : revertChangeSet(db, id, { author })
}

export function redo(db: Db, author: string): RatingResult | null {
  const id = redoTargetId(db)
  return id === null ? null : revertChangeSet(db, id, { author })
}
