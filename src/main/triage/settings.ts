import { type TriageSettings, triageSettingsSchema } from '../../shared/contract/triage'
import type { Db } from '../db/connection'
import { readSetting, writeSetting } from '../db/queries/settings'

const KEY = 'triage.settings'

/** The project's triage thresholds; defaults for any not set (or unreadable). */
export function triageSettings(db: Db): TriageSettings {
  const parsed = triageSettingsSchema.safeParse(readSetting(db, KEY) ?? {})
  return parsed.success ? parsed.data : triageSettingsSchema.parse({})
}

export function saveTriageSettings(db: Db, settings: TriageSettings): TriageSettings {
  db.transaction(() => writeSetting(db, KEY, settings)).immediate()
  return triageSettings(db)
}
