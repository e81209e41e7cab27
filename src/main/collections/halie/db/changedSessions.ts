import type { Db } from '../../../db/connection'
import { run } from '../../../db/connection'
import { sql } from '../../../db/sql'

/**
 * What an import set in a session an earlier change set brought (`halie_changed_sessions`), named
 * by task and external id, which every replica shares. Only what the import itself set travels:
 * an import sets figures, keys, metadata and scores and never clears one, so another replica's
 * value stays where this one set none, and of two imports setting one value the later-placed
 * stands.
 */
export interface ChangedSession {
  task: string
  externalId: string
  /** The session's worker by id and external id (its id is the same on every replica). */
  worker?: [number, string]
  model?: string
  prompt?: string
  blocks?: number
  queries?: number
  elapsedMinutes?: number
  accuracy?: number
  metadata?: string
  startedAt?: number
  scores?: Record<string, number>
}

const FIELDS = [
  ['model', 'model'],
  ['prompt', 'prompt'],
  ['blocks', 'blocks'],
  ['queries', 'queries'],
  ['elapsedMinutes', 'elapsed_minutes'],
  ['accuracy', 'accuracy'],
  ['metadata', 'metadata'],
  ['startedAt', 'started_at'],
] as const

type SessionRow = Record<string, string | number | null> & { scores: string }

const SESSION_VALUES = `s.id AS id, s.task AS task, s.external_id AS externalId,
  s.worker_id AS workerId, w.external_id AS worker,
  ${FIELDS.map(([name, column]) => `s.${column} AS ${name}`).join(', ')},
  (SELECT json_group_object(name, value) FROM halie_scores WHERE session_id = s.id) AS scores`

/** A session's values as a change that sets every one present. */
function valuesOf(row: SessionRow): ChangedSession {
  const out: ChangedSession = { task: String(row.task), externalId: String(row.externalId) }
  if (row.workerId !== null && row.worker !== null)
    out.worker = [Number(row.workerId), String(row.worker)]
  for (const [name] of FIELDS) {
    const value = row[name]
    if (value !== null && value !== undefined) Object.assign(out, { [name]: value })
  }
  const scores = JSON.parse(row.scores) as Record<string, number>
  if (Object.keys(scores).length > 0) out.scores = scores
  return out
}

/** A held session's row id and values (before an import writes to it), or undefined. */
export function sessionValues(
  db: Db,
  task: string,
  externalId: string,
): { id: number; values: ChangedSession } | undefined {
  const row = db
    .prepare(
      `SELECT ${SESSION_VALUES} FROM halie_sessions s LEFT JOIN workers w ON w.id = s.worker_id
       WHERE s.task = ? AND s.external_id = ?`,
    )
    .get(task, externalId) as SessionRow | undefined
  return row && { id: Number(row.id), values: valuesOf(row) }
}

/**
 * What an import set in a session: the values it holds after the import that differ from those
 * before. Null when the import set none.
 */
export function ownChange(before: ChangedSession, after: ChangedSession): ChangedSession | null {
  const out: ChangedSession = { task: after.task, externalId: after.externalId }
  let any = false
  if (after.worker && after.worker[0] !== before.worker?.[0]) {
    out.worker = after.worker
    any = true
  }
  for (const [name] of FIELDS) {
    const value = after[name]
    if (value !== undefined && value !== before[name]) {
      Object.assign(out, { [name]: value })
      any = true
    }
  }
  const scores = Object.entries(after.scores ?? {}).filter(([n, v]) => before.scores?.[n] !== v)
  if (scores.length > 0) {
    out.scores = Object.fromEntries(scores)
    any = true
  }
  return any ? out : null
}

/** A change as stored: its keys in one order, so every replica keeps the same text. */
function canonical(change: ChangedSession): string {
  const out: ChangedSession = { task: change.task, externalId: change.externalId }
  if (change.worker) out.worker = [change.worker[0], change.worker[1]]
  for (const [name] of FIELDS)
    if (change[name] !== undefined) Object.assign(out, { [name]: change[name] })
  const scores = Object.entries(change.scores ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))
  if (scores.length > 0) out.scores = Object.fromEntries(scores)
  return JSON.stringify(out)
}

/** Records what change set `changeSetId` set in sessions an earlier change set brought. */
export function recordChangedSessions(
  db: Db,
  changeSetId: number,
  changes: readonly { sessionId: number; change: ChangedSession }[],
): void {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO halie_changed_sessions (change_set_id, session_id, changes)
     VALUES (?, ?, ?)`,
  )
  for (const { sessionId, change } of changes) insert.run(changeSetId, sessionId, canonical(change))
}

/**
 * What a change set set in earlier sessions, as recorded when it was made. A session recorded
 * before those values were kept (`changes` null) is carried as it stands.
 */
export function changedSessionsOf(db: Db, changeSetId: number): ChangedSession[] {
  const rows = db
    .prepare(
      `SELECT c.changes AS changes, ${SESSION_VALUES}
       FROM halie_changed_sessions c JOIN halie_sessions s ON s.id = c.session_id
       LEFT JOIN workers w ON w.id = s.worker_id
       WHERE c.change_set_id = ? ORDER BY s.task, s.external_id`,
    )
    .all(changeSetId) as (SessionRow & { changes: string | null })[]
  return rows.map((row) =>
    row.changes === null ? valuesOf(row) : (JSON.parse(row.changes) as ChangedSession),
  )
}

/** The workers a change set set on earlier sessions, as a subquery of ids (they travel with it). */
export function changedSessionWorkers(changeSetId: number): string {
  const id = Math.trunc(changeSetId)
  return `SELECT json_extract(changes, '$.worker[0]') FROM halie_changed_sessions
      WHERE change_set_id = ${id} AND changes IS NOT NULL
    UNION SELECT s.worker_id FROM halie_changed_sessions c JOIN halie_sessions s ON s.id = c.session_id
      WHERE c.change_set_id = ${id} AND c.changes IS NULL`
}

/** Writes a change's values into session `id`, only those present. */
function writeChange(db: Db, id: number, change: ChangedSession): void {
  if (change.worker) {
    const [workerId, externalId] = change.worker
    run(
      db,
      sql`INSERT OR IGNORE INTO workers (id, external_id) VALUES (${workerId}, ${externalId})`,
    )
  }
  const columns = [['workerId', 'worker_id'] as const, ...FIELDS]
  const values: Record<string, unknown> = { ...change, workerId: change.worker?.[0] }
  db.prepare(
    `UPDATE halie_sessions SET ${columns.map(([name, column]) => `${column} = coalesce(@${name}, ${column})`).join(', ')}
     WHERE id = @id`,
  ).run({ id, ...Object.fromEntries(columns.map(([name]) => [name, values[name] ?? null])) })
  const score = db.prepare(
    `INSERT INTO halie_scores (session_id, name, value) VALUES (?, ?, ?)
     ON CONFLICT (session_id, name) DO UPDATE SET value = excluded.value`,
  )
  for (const [name, value] of Object.entries(change.scores ?? {})) score.run(id, name, value)
}

/**
 * Writes another replica's changes to a session into change set `changeSetId`; false when this
 * replica lacks the session.
 */
export function applyChangedSession(db: Db, changeSetId: number, change: ChangedSession): boolean {
  const id = db
    .prepare('SELECT id FROM halie_sessions WHERE task = ? AND external_id = ?')
    .pluck()
    .get(change.task, change.externalId) as number | undefined
  if (id === undefined) return false
  writeChange(db, id, change)
  recordChangedSessions(db, changeSetId, [{ sessionId: id, change }])
  return true
}

/**
 * Writes again what this replica's change set `changeSetId` set in earlier sessions, after what
 * a pull wrote there: its place in the log is later, so its values stand.
 */
export function reapplyChangedSessions(db: Db, changeSetId: number): void {
  const rows = db
    .prepare(
      `SELECT session_id AS id, changes FROM halie_changed_sessions
       WHERE change_set_id = ? AND changes IS NOT NULL`,
    )
    .all(changeSetId) as { id: number; changes: string }[]
  for (const row of rows) writeChange(db, row.id, JSON.parse(row.changes) as ChangedSession)
}
