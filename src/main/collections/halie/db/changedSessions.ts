import type { Db } from '../../../db/connection'
import { run } from '../../../db/connection'
import { sql } from '../../../db/sql'

/**
 * What an import left on sessions an earlier change set brought (`halie_changed_sessions`), named
 * by task and external id, which every replica shares. Only values present travel: an import sets
 * figures, keys, metadata and scores and never clears one, so another replica's value stays
 * where this one had none.
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

export function changedSessionsOf(db: Db, changeSetId: number): ChangedSession[] {
  const rows = db
    .prepare(
      `SELECT s.id AS id, s.task AS task, s.external_id AS externalId, s.worker_id AS workerId,
         w.external_id AS worker, ${FIELDS.map(([name, column]) => `s.${column} AS ${name}`).join(', ')},
         (SELECT json_group_object(name, value) FROM halie_scores WHERE session_id = s.id) AS scores
       FROM halie_changed_sessions c JOIN halie_sessions s ON s.id = c.session_id
       LEFT JOIN workers w ON w.id = s.worker_id
       WHERE c.change_set_id = ? ORDER BY s.task, s.external_id`,
    )
    .all(changeSetId) as (Record<string, string | number | null> & { scores: string })[]
  return rows.map((row) => {
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
  })
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
  run(
    db,
    sql`INSERT OR IGNORE INTO halie_changed_sessions (change_set_id, session_id)
        VALUES (${changeSetId}, ${id})`,
  )
  return true
}
