import type { Db } from '../db/connection'
import { latestValue } from '../db/queries/changes/entries'
import { encodeEntry, recordChange, sameValue } from './entries'

interface SettingChange {
  key: string
  /** The new value (JSON-able); null removes the setting, so its default applies. */
  value: unknown
  author: string
  /** What History says, e.g. "Tier map: 3 → tier 3, 2 → tier 2". */
  description: string
}

/**
 * Sets a project setting as a change set of its own. Saving the value it already has records
 * nothing. Returns the change set, or null when nothing changed.
 */
export function changeSetting(db: Db, change: SettingChange): number | null {
  return db
    .transaction(() => {
      const entry = { subject: 'setting', key: change.key, value: change.value } as const
      const current = latestValue(db, 'setting', encodeEntry(entry).key)?.value ?? null
      if (sameValue(current, encodeEntry(entry).value)) return null
      return recordChange(
        db,
        { kind: 'setting', author: change.author, description: change.description },
        [entry],
      ).id
    })
    .immediate()
}
