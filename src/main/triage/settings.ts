import { type TriageSettings, triageSettingsSchema } from '../../shared/contract/triage'
import type { Db } from '../db/connection'
import { readSetting } from '../db/queries/settings'
import { changeSetting } from '../changes/settings'

const KEY = 'triage.settings'

/** The project's triage thresholds; defaults for any not set (or unreadable). */
export function triageSettings(db: Db): TriageSettings {
  const parsed = triageSettingsSchema.safeParse(readSetting(db, KEY) ?? {})
  return parsed.success ? parsed.data : triageSettingsSchema.parse({})
}

/** Saves the thresholds as one change set (none when they are as they were). */
export function saveTriageSettings(
  db: Db,
  settings: TriageSettings,
  author: string,
): TriageSettings {
  const s = settings
  const percent = (share: number) => `${Number((share * 100).toFixed(2))} %`
  changeSetting(db, {
    key: KEY,
    value: settings,
    author,
    description:
      `Flag thresholds: queue share ${percent(s.queueShare)}, rushing under ${s.rushSeconds} s ` +
      `or ${percent(s.rushMinimalShare)} minimal, new for ${s.newWorkerDays} days`,
  })
  return triageSettings(db)
}
