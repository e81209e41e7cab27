import type { ChangeSetKind, Transition } from '../../../../shared/contract/ratings'
import type { Db } from '../../connection'
import { all, get, run } from '../../connection'
import { sql } from '../../sql'

/** Change sets as the history panel lists them, with what each did to effective ratings. */

export interface ChangeSetRow {
  id: number
  kind: ChangeSetKind
  author: string
  at: number
  description: string
  reverts: number | null
  changed: number
  transitions: Transition[]
}

export function recordEffects(
  db: Db,
  changeSetId: number,
  changed: number,
  transitions: Transition[],
): void {
  run(
    db,
    sql`INSERT INTO rating_effects (change_set_id, changed, transitions)
        VALUES (${changeSetId}, ${changed}, ${JSON.stringify(transitions)})
        ON CONFLICT (change_set_id) DO UPDATE SET changed = excluded.changed, transitions = excluded.transitions`,
  )
}

const columns = sql`c.id, c.kind, c.author, c.created_at AS at, c.description, c.reverts,
  coalesce(e.changed, 0) AS changed, coalesce(e.transitions, '[]') AS transitions`

function toRow(row: Omit<ChangeSetRow, 'transitions'> & { transitions: string }): ChangeSetRow {
  return { ...row, transitions: JSON.parse(row.transitions) as Transition[] }
}

/** Newest first; `beforeId` pages back. */
export function listChangeSets(
  db: Db,
  { limit = 200, beforeId }: { limit?: number; beforeId?: number } = {},
): ChangeSetRow[] {
  const before = beforeId === undefined ? sql`1` : sql`c.id < ${beforeId}`
  return all<Omit<ChangeSetRow, 'transitions'> & { transitions: string }>(
    db,
    sql`SELECT ${columns} FROM change_sets c LEFT JOIN rating_effects e ON e.change_set_id = c.id
        WHERE ${before} ORDER BY c.id DESC LIMIT ${limit}`,
  ).map(toRow)
}

export function changeSetById(db: Db, id: number): ChangeSetRow | undefined {
  const row = get<Omit<ChangeSetRow, 'transitions'> & { transitions: string }>(
    db,
    sql`SELECT ${columns} FROM change_sets c LEFT JOIN rating_effects e ON e.change_set_id = c.id
        WHERE c.id = ${id}`,
  )
  return row && toRow(row)
}

/** Every revert and what it reverts, newest first: enough to tell which change sets are in force. */
export function revertLinks(db: Db): { id: number; reverts: number }[] {
  return all(
    db,
    sql`SELECT id, reverts FROM change_sets WHERE kind = 'revert' AND reverts IS NOT NULL ORDER BY id DESC`,
  )
}

/** Ids (and kinds) of change sets of the given kinds, newest first; `beforeId` pages back. */
export function changeSetIdsOfKinds(
  db: Db,
  kinds: readonly ChangeSetKind[],
  { limit, beforeId }: { limit: number; beforeId?: number | undefined },
): { id: number; kind: ChangeSetKind }[] {
  const before = beforeId === undefined ? sql`1` : sql`id < ${beforeId}`
  return all<{ id: number; kind: ChangeSetKind }>(
    db,
    sql`SELECT id, kind FROM change_sets WHERE kind IN ${sql.list(kinds)} AND ${before}
        ORDER BY id DESC LIMIT ${limit}`,
  )
}
