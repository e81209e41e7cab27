import type { Db } from '../connection'
import { pluck, run } from '../connection'
import { sql } from '../sql'

/** Project settings are JSON values under a key; callers parse them with their own schema. */
export function readSetting(db: Db, key: string): unknown {
  const text = pluck<string>(db, sql`SELECT value FROM settings WHERE key = ${key}`)
  return text === undefined ? undefined : (JSON.parse(text) as unknown)
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  run(
    db,
    sql`INSERT INTO settings (key, value) VALUES (${key}, ${JSON.stringify(value)})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  )
}

/** Removes a setting: its reader's default applies again. */
export function deleteSetting(db: Db, key: string): void {
  run(db, sql`DELETE FROM settings WHERE key = ${key}`)
}
