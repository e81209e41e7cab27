import type { EntryRow } from '../db/queries/changes/entries'
import type { Db } from '../db/types'
import { applyCrowdaqEntry } from './crowdaq/entries'
import { applyHalieEntry } from './halie/entries'

/**
 * The collections' change entries, applied with their own code. Apart from `registry.ts`, as
 * `importers.ts` is, so that the sync thread and the core's `applyEntry` do not load every
 * handler and command.
 */

/**
 * Entries the core records, applies and reverts like its own (HALIE's item ratings): the core's
 * `applyEntry` hands them here, locally, on a revert and on a pull alike.
 */
const appliers: readonly ((db: Db, row: EntryRow) => boolean)[] = [applyHalieEntry]

/**
 * Entries a collection writes with the code that records them (CROWDAQ's saved exams), applied
 * here only when a team pull brings them.
 */
const pulledAppliers: readonly ((db: Db, row: EntryRow, changeSetId: number) => boolean)[] = [
  applyCrowdaqEntry,
]

/** True when a collection applied `row`; false leaves it to the core's `applyEntry`. */
export function applyCollectionSubject(db: Db, row: EntryRow): boolean {
  return appliers.some((apply) => apply(db, row))
}

/** True when a collection applied a pulled `row`; false leaves it to the core's `applyEntry`. */
export function applyCollectionEntry(db: Db, row: EntryRow, changeSetId: number): boolean {
  return pulledAppliers.some((apply) => apply(db, row, changeSetId))
}
