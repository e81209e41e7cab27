import type { EntryRow } from '../db/queries/changes/entries'
import type { Db } from '../db/types'
import { applyCrowdaqEntry } from './crowdaq/entries'

/**
 * The collections that apply some of their change entries with their own code when a team pull
 * brings them. Apart from `registry.ts`, as `importers.ts` is, so that the sync thread does not
 * load every handler and command.
 */
const appliers: readonly ((db: Db, row: EntryRow, changeSetId: number) => boolean)[] = [
  applyCrowdaqEntry,
]

/** True when a collection applied `row`; false leaves it to the core's `applyEntry`. */
export function applyCollectionEntry(db: Db, row: EntryRow, changeSetId: number): boolean {
  return appliers.some((apply) => apply(db, row, changeSetId))
}
