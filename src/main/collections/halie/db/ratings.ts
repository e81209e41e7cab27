import type { Db } from '../../../db/connection'
import { all, get, pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'

/** What a HALIE rating entry names: a whole session, or one event block (its table row). */
export type HalieRatingKey = { session: number } | { block: number }

/** Keeps the item rating in force on the row the pages and the release read. */
export function setHalieRating(db: Db, key: HalieRatingKey, value: number | null): void {
  if ('session' in key)
    run(db, sql`UPDATE halie_sessions SET rating = ${value} WHERE id = ${key.session}`)
  else run(db, sql`UPDATE halie_rows SET rating = ${value} WHERE id = ${key.block}`)
}

/** The sessions of these ids that exist, with what a change set's description names them by. */
export function sessionNames(
  db: Db,
  ids: readonly number[],
): { id: number; task: string; externalId: string }[] {
  return all(
    db,
    sql`SELECT id, task, external_id AS externalId FROM halie_sessions
        WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY id`,
  )
}

/** Event block rows of these ids (rows of an `event_blocks` table), with their session. */
export function blockNames(
  db: Db,
  ids: readonly number[],
): { id: number; task: string; line: number; session: string }[] {
  return all(
    db,
    sql`SELECT r.id AS id, t.task AS task, r.line AS line, s.external_id AS session
        FROM halie_rows AS r JOIN halie_tables AS t ON t.id = r.table_id
          JOIN halie_sessions AS s ON s.id = r.session_id
        WHERE t.kind = 'event_blocks'
          AND r.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY r.id`,
  )
}

/** A session's worker, start and item rating: what its effective rating is worked out from. */
export interface SessionRatingBasis {
  id: number
  workerId: number | null
  startedAt: number | null
  rating: number | null
}

export function sessionRatingBases(db: Db, ids?: readonly number[]): SessionRatingBasis[] {
  const only = ids ? sql`WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))` : sql``
  return all(
    db,
    sql`SELECT id, worker_id AS workerId, started_at AS startedAt, rating FROM halie_sessions
        ${only} ORDER BY id`,
  )
}

/** The block ratings of a session: row id → item rating (event blocks only, rated or not). */
export function blockRatings(db: Db, sessionId: number): { id: number; rating: number | null }[] {
  return all(
    db,
    sql`SELECT r.id AS id, r.rating AS rating FROM halie_rows AS r
          JOIN halie_tables AS t ON t.id = r.table_id
        WHERE r.session_id = ${sessionId} AND t.kind = 'event_blocks' ORDER BY r.line`,
  )
}

/**
 * Item ratings as they stood at `asOf` (epoch ms): the latest `halie.rating` entry of each key
 * recorded by then (reverts are entries too). Keys are `session:<id>` and `block:<id>`.
 */
export function halieRatingsAsOf(db: Db, asOf: number): Map<string, number | null> {
  const rows = all<{ key: string; value: string | null }>(
    db,
    sql`SELECT e.key AS key, e.value AS value FROM change_entries AS e
          JOIN change_sets AS c ON c.id = e.change_set_id
        WHERE e.subject = 'halie.rating' AND c.created_at <= ${asOf}
        ORDER BY e.id`,
  )
  const out = new Map<string, number | null>()
  for (const row of rows) {
    const key = JSON.parse(row.key) as HalieRatingKey
    const name = 'session' in key ? `session:${key.session}` : `block:${key.block}`
    out.set(name, row.value === null ? null : (JSON.parse(row.value) as number))
  }
  return out
}

/**
 * A rating key as every replica names it: a session by its task and external id, a block by its
 * task and its line in the task's event blocks (row ids are this replica's own).
 */
export type SharedHalieRatingKey =
  { task: string; session: string } | { task: string; blockLine: number }

export function sharedHalieRatingKey(db: Db, key: HalieRatingKey): SharedHalieRatingKey | null {
  if ('session' in key) {
    return (
      get<{ task: string; session: string }>(
        db,
        sql`SELECT task, external_id AS session FROM halie_sessions WHERE id = ${key.session}`,
      ) ?? null
    )
  }
  return (
    get<{ task: string; blockLine: number }>(
      db,
      sql`SELECT t.task AS task, r.line AS blockLine FROM halie_rows AS r
          JOIN halie_tables AS t ON t.id = r.table_id WHERE r.id = ${key.block}`,
    ) ?? null
  )
}

export function localHalieRatingKey(db: Db, key: SharedHalieRatingKey): HalieRatingKey | null {
  if ('session' in key) {
    const id = pluck<number>(
      db,
      sql`SELECT id FROM halie_sessions WHERE task = ${key.task} AND external_id = ${key.session}`,
    )
    return id === undefined ? null : { session: id }
  }
  const id = pluck<number>(
    db,
    sql`SELECT r.id FROM halie_rows AS r JOIN halie_tables AS t ON t.id = r.table_id
        WHERE t.task = ${key.task} AND t.kind = 'event_blocks' AND r.line = ${key.blockLine}`,
  )
  return id === undefined ? null : { block: id }
}
