import { UserError } from '../../shared/contract/errors'
import type { RatingResult } from '../../shared/contract/ratings'
import { ratingKey } from '../../shared/ratings/key'
import type { Db } from '../db/connection'
import { createChangeSet } from '../db/queries/changes/sets'
import { recordEffects } from '../db/queries/changes/history'
import {
  NOW,
  insertItemRatings,
  insertWorkerRating,
  workerById,
  workerRatingsInForce,
} from '../db/queries/ratings/rows'
import {
  applyItemValues,
  applySelectionTo,
  beginTracking,
  fillSelection,
  previewSelectionTo,
  previewTargets,
  previewWorkerSegments,
  selectionChunks,
  WRITE_CHUNK,
} from '../db/queries/ratings/apply'
import { QUIET, type WriteHooks, step } from '../jobs/writeHooks'
import { type SqlFragment, sql } from '../db/sql'
import { formatDay } from './dates'
import {
  applyLoneWorkerChange,
  refreshSelection,
  targetsWithoutItems,
  totalChanged,
  trackedChanges,
  workerTimeline,
} from './effective'
import { settlePending } from './importTimelines'
import { assertOnScale } from './scale'
import { changedSegments, segments } from './timeline'
import { plural } from '../../shared/text'

export interface Who {
  author: string
  note?: string
}

/** A worker rating in force from `from` (epoch seconds, a day); one manual change set. */
export function rateWorker(
  db: Db,
  r: Who & { workerId: number; value: number; from: number; preview?: boolean },
): RatingResult {
  const worker = workerById(db, r.workerId)
  if (!worker) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-worker',
      message: `No worker ${r.workerId}.`,
      field: 'workerId',
    })
  }
  assertOnScale(db, r.value)
  if (r.preview) {
    const rows = workerRatingsInForce(db, [r.workerId], NOW)
    const before = segments(rows)
    const after = segments([
      ...rows,
      { id: Infinity, value: r.value, effectiveFrom: r.from, recordedAt: NOW },
    ])
    const transitions = previewWorkerSegments(db, r.workerId, changedSegments(before, after))
    return {
      preview: true,
      changeSet: null,
      changed: totalChanged(transitions),
      rows: 1,
      transitions,
    }
  }
  return db
    .transaction((): RatingResult => {
      settlePending(db, r.author)
      const before = workerTimeline(db, r.workerId)
      const changeSet = createChangeSet(db, {
        kind: 'manual',
        author: r.author,
        description: `Worker ${worker.externalId} rated ${ratingKey(r.value)} from ${formatDay(r.from)}${r.note ? ` — ${r.note}` : ''}`,
      })
      insertWorkerRating(db, {
        workerId: r.workerId,
        value: r.value,
        effectiveFrom: r.from,
        recordedAt: changeSet.at,
        author: r.author,
        note: r.note ?? '',
        changeSetId: changeSet.id,
      })
      const { changed, transitions } = applyLoneWorkerChange(db, r.workerId, before)
      recordEffects(db, changeSet.id, changed, transitions)
      return { preview: false, changeSet: changeSet.id, changed, rows: 1, transitions }
    })
    .immediate()
}

export interface ItemTarget {
  /** Query yielding the annotation ids (column `id`). */
  annotations: SqlFragment
  kind: 'manual' | 'bulk'
  /** How the history names what was rated, e.g. "3 annotations", "submission 12". */
  what: string
}

/**
 * Item ratings for a set of annotations in one change set; `value: null` clears them. `hooks` hear
 * its steps and may cancel it between them, which rolls it all back.
 */
export function rateItems(
  db: Db,
  target: ItemTarget,
  r: Who & { value: number | null; preview?: boolean },
  hooks: WriteHooks = QUIET,
): RatingResult {
  if (r.value !== null) assertOnScale(db, r.value)
  const value = r.value
  if (r.preview) {
    const rows = fillSelection(db, target.annotations)
    let transitions
    if (value === null) {
      targetsWithoutItems(db)
      transitions = previewTargets(db)
    } else {
      transitions = previewSelectionTo(db, value)
    }
    return { preview: true, changeSet: null, changed: totalChanged(transitions), rows, transitions }
  }
  return db
    .transaction((): RatingResult => {
      step(hooks, 'Selecting annotations')
      settlePending(db, r.author)
      const rows = fillSelection(db, target.annotations)
      if (rows === 0)
        return { preview: false, changeSet: null, changed: 0, rows: 0, transitions: [] }
      const verb = value === null ? 'Cleared item ratings of' : `Rated ${ratingKey(value)}:`
      const changeSet = createChangeSet(db, {
        kind: target.kind,
        author: r.author,
        description: `${verb} ${target.what} (${plural(rows, 'annotation')})${r.note ? ` — ${r.note}` : ''}`,
      })
      let recorded = 0
      for (const chunk of selectionChunks(db, WRITE_CHUNK)) {
        step(hooks, 'Recording item ratings', recorded, rows)
        insertItemRatings(db, {
          annotations: chunk.ids,
          value: sql`${value}`,
          recordedAt: changeSet.at,
          author: r.author,
          note: r.note ?? '',
          changeSetId: changeSet.id,
        })
        recorded += chunk.count
      }
      if (value === null) {
        step(hooks, 'Working out effective ratings', rows, rows)
        beginTracking(db)
        refreshSelection(db)
        step(hooks, 'Counting what moved', rows, rows)
        return finish(db, changeSet.id, rows)
      }
      step(hooks, 'Counting what moves', 0, rows)
      const transitions = previewSelectionTo(db, value)
      applySelectionTo(db, value, rows, (done, rebuilding) =>
        rebuilding
          ? step(hooks, 'Rebuilding the rating index', rows, rows)
          : step(hooks, 'Updating effective ratings', done, rows),
      )
      const changed = totalChanged(transitions)
      recordEffects(db, changeSet.id, changed, transitions)
      return { preview: false, changeSet: changeSet.id, changed, rows, transitions }
    })
    .immediate()
}

/**
 * Item ratings of one change set, each annotation its own value and note (`rows` yields `id`,
 * `value` and `note`: a policy's moves), put in force at once, since an item rating outranks the
 * worker's. Call inside the change set's transaction; `count` is how many rows `rows` yields.
 */
export function recordItemRatings(
  db: Db,
  rows: SqlFragment,
  count: number,
  by: { changeSetId: number; at: number; author: string },
): void {
  insertItemRatings(db, {
    annotations: rows,
    value: sql`s.value`,
    note: sql`s.note`,
    recordedAt: by.at,
    author: by.author,
    changeSetId: by.changeSetId,
  })
  applyItemValues(db, rows, count)
}

function finish(db: Db, changeSetId: number, rows: number): RatingResult {
  const { changed, transitions } = trackedChanges(db)
  recordEffects(db, changeSetId, changed, transitions)
  return { preview: false, changeSet: changeSetId, changed, rows, transitions }
}
