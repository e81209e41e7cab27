import type { HalieTable, HalieTask } from '../../../../shared/halie/tasks'
import { BatchInsert } from '../../../db/batch'
import type { Db } from '../../../db/connection'
import { get, pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'

/**
 * The writes of a HALIE import, inside its one transaction. On a team replica new rows take ids
 * from the replica's band (`nextBandId`; null elsewhere, and SQLite picks), so an import made
 * after publishing names its rows alike on every replica.
 */

export function heldTable(
  db: Db,
  task: HalieTask,
  kind: HalieTable,
): { id: number; sha256: string; name: string } | undefined {
  return get(
    db,
    sql`SELECT t.id AS id, f.sha256 AS sha256, f.name AS name
        FROM halie_tables AS t JOIN source_files AS f ON f.id = t.source_file_id
        WHERE t.task = ${task} AND t.kind = ${kind}`,
  )
}

export function addTable(
  db: Db,
  table: { task: HalieTask; kind: HalieTable; header: readonly string[]; sourceFileId: number },
): number {
  return Number(
    run(
      db,
      sql`INSERT INTO halie_tables (id, task, kind, header, source_file_id)
          VALUES (${nextBandId(db, 'halie_tables')}, ${table.task}, ${table.kind}, ${JSON.stringify(table.header)}, ${table.sourceFileId})`,
    ).lastInsertRowid,
  )
}

export interface SessionKeys {
  task: HalieTask
  externalId: string
  workerId: number | null
  model: string | null
  prompt: string | null
  changeSetId: number
}

/** The session's row id, added (or given the keys it lacked) as needed. */
export function findOrAddSession(db: Db, s: SessionKeys): number {
  const id = pluck<number>(
    db,
    sql`SELECT id FROM halie_sessions WHERE task = ${s.task} AND external_id = ${s.externalId}`,
  )
  if (id !== undefined) {
    run(
      db,
      sql`UPDATE halie_sessions SET worker_id = coalesce(worker_id, ${s.workerId}),
            model = coalesce(model, ${s.model}), prompt = coalesce(prompt, ${s.prompt})
          WHERE id = ${id}`,
    )
    return id
  }
  return Number(
    run(
      db,
      sql`INSERT INTO halie_sessions (id, task, external_id, worker_id, model, prompt, change_set_id)
          VALUES (${nextBandId(db, 'halie_sessions')}, ${s.task}, ${s.externalId}, ${s.workerId}, ${s.model}, ${s.prompt}, ${s.changeSetId})`,
    ).lastInsertRowid,
  )
}

/** What a session already holds, to tell a row that disagrees with it. */
export function sessionKeys(
  db: Db,
  task: HalieTask,
  externalId: string,
): { worker: string | null; model: string | null; prompt: string | null } | undefined {
  return get(
    db,
    sql`SELECT w.external_id AS worker, s.model AS model, s.prompt AS prompt
        FROM halie_sessions AS s LEFT JOIN workers AS w ON w.id = s.worker_id
        WHERE s.task = ${task} AND s.external_id = ${externalId}`,
  )
}

/** Rows of one table: `(table_id, line, session_id, cells)`. */
export function rowWriter(db: Db): Pick<BatchInsert, 'add' | 'flush'> {
  const batch = new BatchInsert(
    db,
    'INSERT INTO halie_rows (id, table_id, line, session_id, cells)',
    5,
  )
  let next = nextBandId(db, 'halie_rows')
  return {
    add: (...values) => batch.add(next === null ? null : next++, ...values),
    flush: () => batch.flush(),
  }
}

export function setAccuracy(db: Db, id: number, accuracy: number | null): void {
  run(db, sql`UPDATE halie_sessions SET accuracy = ${accuracy} WHERE id = ${id}`)
}

/** Survey scores: `(session_id, name, value)`, a later value of a score replacing the earlier. */
export function scoreWriter(db: Db): BatchInsert {
  return new BatchInsert(
    db,
    'INSERT INTO halie_scores (session_id, name, value)',
    3,
    [],
    200,
    'ON CONFLICT (session_id, name) DO UPDATE SET value = excluded.value',
  )
}

/**
 * The figures of many sessions in one statement (`[id, blocks, queries, minutes]` as JSON), not
 * one UPDATE per session.
 */
export function setManySessionFigures(
  db: Db,
  figures: readonly [number, number, number, number | null][],
): void {
  if (figures.length === 0) return
  run(
    db,
    sql`UPDATE halie_sessions SET blocks = f.value ->> 1, queries = f.value ->> 2,
          elapsed_minutes = f.value ->> 3
        FROM json_each(${JSON.stringify(figures)}) AS f
        WHERE halie_sessions.id = f.value ->> 0`,
  )
}

/** Sets a session's metadata line; whether it changed (a folder imported again changes nothing). */
export function setMetadata(db: Db, sessionId: number, line: string): boolean {
  return (
    run(
      db,
      sql`UPDATE halie_sessions SET metadata = ${line} WHERE id = ${sessionId} AND metadata IS NOT ${line}`,
    ).changes > 0
  )
}

export function hasLog(db: Db, sessionId: number): boolean {
  return pluck<number>(db, sql`SELECT 1 FROM halie_logs WHERE session_id = ${sessionId}`) === 1
}

export function addLog(
  db: Db,
  log: { sessionId: number; sourceFileId: number; events: number; durationMs: number },
): number {
  return Number(
    run(
      db,
      sql`INSERT INTO halie_logs (id, session_id, source_file_id, events, duration_ms)
          VALUES (${nextBandId(db, 'halie_logs')}, ${log.sessionId}, ${log.sourceFileId}, ${log.events}, ${log.durationMs})`,
    ).lastInsertRowid,
  )
}

/** Log lines: `(log_id, seq, line)`. */
export function logEventWriter(db: Db): BatchInsert {
  return new BatchInsert(db, 'INSERT INTO halie_log_events (log_id, seq, line)', 3)
}

/**
 * When each session without one began (epoch ms): its raw log's first event, else its metadata's
 * `start_timestamp` (seconds). A worker's dated ratings apply to the session at that moment.
 */
export function fillStartTimes(db: Db): void {
  run(
    db,
    sql`UPDATE halie_sessions SET started_at = coalesce(
          (SELECT CAST(json_extract(e.line, '$.eventTimestamp') AS INTEGER)
             FROM halie_logs AS l JOIN halie_log_events AS e ON e.log_id = l.id
             WHERE l.session_id = halie_sessions.id AND json_valid(e.line)
             ORDER BY e.seq LIMIT 1),
          CASE WHEN json_valid(metadata)
            THEN CAST(json_extract(metadata, '$.start_timestamp') * 1000 AS INTEGER) END)
        WHERE started_at IS NULL`,
  )
}
