import type { EntryRow } from '../../db/queries/changes/entries'
import type { Db } from '../../db/types'
import { type HalieRatingKey, setHalieRating } from './db/ratings'

/**
 * Applies a HALIE item rating's change entry, here or on a replica, and when a revert puts an
 * earlier value back; false for an entry that is not HALIE's.
 */
export function applyHalieEntry(db: Db, row: EntryRow): boolean {
  if (row.subject !== 'halie.rating') return false
  const value = row.value === null ? null : (JSON.parse(row.value) as number | null)
  setHalieRating(db, JSON.parse(row.key) as HalieRatingKey, value)
  return true
}
