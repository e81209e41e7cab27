import { UserError } from '../../shared/contract/errors'
import { RATING_SCALE_SETTING, type RatingResult } from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import { createChangeSet } from '../db/queries/changes/sets'
import {
  type EntryRow,
  entriesOf,
  insertEntry,
  latestValue,
  valueInForce,
} from '../db/queries/changes/entries'
import type { ChangeSetRow } from '../db/queries/changes/history'
import { revertOutcome, revertedByMap } from '../ratings/history'
import { checkScale, scaleOrDefault } from '../ratings/scale'
import { applyEntry, isRevertableSubject, sameValue } from './entries'

class Rollback extends Error {
  constructor(readonly result: RatingResult) {
    super('preview')
  }
}

/** A restored setting must still be valid: a scale may not drop a rating now in use. */
function checkSetting(db: Db, row: EntryRow): void {
  if (row.key !== JSON.stringify(RATING_SCALE_SETTING)) return
  checkScale(db, scaleOrDefault(row.value === null ? undefined : JSON.parse(row.value)))
}

/**
 * Reverts a change set of entries (a triage mark, a verdict, a setting…) by adding entries: each
 * key it set gets the value the changes still in force give it (undoing a revert re-applies).
 * A key that a later change has set again keeps that value. The revert is recorded even when no
 * key changes now, so reverting that later change later restores the value from before both.
 */
export function revertEntries(
  db: Db,
  target: ChangeSetRow,
  by: { author: string; preview?: boolean },
): RatingResult {
  // The keys of the change the chain of reverts finally acts on (a revert may have written none).
  const entries = entriesOf(db, revertOutcome(db, target).original.id)
  const fixed = entries.find((e) => !isRevertableSubject(e.subject))
  if (fixed) {
    throw new UserError({
      type: 'conflict',
      code: 'not-revertable',
      message: `Change set ${target.id} (${target.description}) cannot be reverted: save the earlier version again instead.`,
    })
  }
  const keys = new Map<string, EntryRow>()
  for (const e of entries) keys.set(`${e.subject}\u0000${e.key}`, e)
  const apply = (): RatingResult => {
    const changeSet = createChangeSet(db, {
      kind: 'revert',
      author: by.author,
      description: revertOutcome(db, target).description,
      reverts: target.id,
    })
    // Read after the revert is written, so its target (and what that undid) counts as it will.
    const reverted = [...revertedByMap(db).keys()]
    let rows = 0
    for (const { subject, key } of keys.values()) {
      const value = valueInForce(db, subject, key, reverted)?.value ?? null
      const current = latestValue(db, subject, key)?.value ?? null
      if (sameValue(value, current)) continue
      const row = { subject, key, value }
      if (subject === 'setting') checkSetting(db, row)
      insertEntry(db, changeSet.id, row)
      applyEntry(db, row, changeSet.at)
      rows++
    }
    return { preview: false, changeSet: changeSet.id, changed: 0, rows, transitions: [] }
  }
  if (!by.preview) return db.transaction(apply).immediate()
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
