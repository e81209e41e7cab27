import type { Db } from '../../connection'
import { all, get, pluck, run } from '../../connection'
import { sql } from '../../sql'

/** What a change set set, one row per thing: see migration 015. Rows are only ever added. */

export type EntrySubject =
  | 'triage.mark'
  | 'triage.feedback'
  | 'triage.reviewed'
  | 'audit.verdict'
  | 'setting'
  | 'crowdaq.exam-settings'
  | 'crowdaq.question-set'
  | 'halie.rating'

/** One entry as stored: `key` and `value` are JSON text (`value` null: cleared). */
export interface EntryRow {
  subject: EntrySubject
  key: string
  value: string | null
}

export function insertEntry(db: Db, changeSetId: number, entry: EntryRow): void {
  run(
    db,
    sql`INSERT INTO change_entries (change_set_id, subject, key, value)
        VALUES (${changeSetId}, ${entry.subject}, ${entry.key}, ${entry.value})`,
  )
}

export function entriesOf(db: Db, changeSetId: number): EntryRow[] {
  return all<EntryRow>(
    db,
    sql`SELECT subject, key, value FROM change_entries WHERE change_set_id = ${changeSetId}
        ORDER BY id`,
  )
}

export function hasEntries(
  db: Db,
  changeSetId: number,
  subjects?: readonly EntrySubject[],
): boolean {
  const of = subjects ? sql`AND subject IN ${sql.list(subjects)}` : sql.empty
  return (
    pluck<number>(
      db,
      sql`SELECT 1 FROM change_entries WHERE change_set_id = ${changeSetId} ${of} LIMIT 1`,
    ) !== undefined
  )
}

/** The value in force of a key: its latest entry (undefined when it has none). */
export function latestValue(
  db: Db,
  subject: EntrySubject,
  key: string,
): { value: string | null } | undefined {
  return get<{ value: string | null }>(
    db,
    sql`SELECT value FROM change_entries INDEXED BY change_entries_key
        WHERE subject = ${subject} AND key = ${key} ORDER BY id DESC LIMIT 1`,
  )
}

/**
 * The value a key has from the changes in force alone: its latest entry made by a change that is
 * neither a revert nor among `reverted` (entries with no change set are the state before
 * recording began, always in force). Undefined when no such entry exists.
 */
export function valueInForce(
  db: Db,
  subject: EntrySubject,
  key: string,
  reverted: readonly number[],
): { value: string | null } | undefined {
  return get<{ value: string | null }>(
    db,
    sql`SELECT e.value FROM change_entries e INDEXED BY change_entries_key
          LEFT JOIN change_sets c ON c.id = e.change_set_id
        WHERE e.subject = ${subject} AND e.key = ${key}
          AND (e.change_set_id IS NULL OR (c.kind != 'revert'
            AND e.change_set_id NOT IN (SELECT value FROM json_each(${JSON.stringify(reverted)}))))
        ORDER BY e.id DESC LIMIT 1`,
  )
}
