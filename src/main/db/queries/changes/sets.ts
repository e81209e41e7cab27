import type { ChangeSetKind } from '../../../../shared/contract/ratings'
import type { Db } from '../../connection'
import { get, run } from '../../connection'
import { sql } from '../../sql'
import { foldCountMoves } from '../annotationCounts'
import { foldSubmissionMoves } from '../submissionCounts'

export interface NewChangeSet {
  kind: ChangeSetKind
  author: string
  description: string
  reverts?: number | null
  /** Epoch ms; defaults to now. */
  at?: number
}

/**
 * Opens a change set. Timestamps strictly increase within a project so "as of T" can always tell
 * two change sets apart, even when they land in the same millisecond. The schema gives it a
 * random `uid` that names it on other replicas, where its local id means nothing.
 */
export function createChangeSet(db: Db, change: NewChangeSet): { id: number; at: number } {
  // Every write is a change set: the summary's log then holds at most the last one's moves.
  foldCountMoves(db)
  foldSubmissionMoves(db)
  const last = get<{ at: number }>(db, sql`SELECT max(created_at) AS at FROM change_sets`)?.at ?? 0
  const at = Math.max(change.at ?? Date.now(), last + 1)
  const result = run(
    db,
    sql`INSERT INTO change_sets (kind, author, created_at, description, reverts)
        VALUES (${change.kind}, ${change.author}, ${at}, ${change.description}, ${change.reverts ?? null})`,
  )
  return { id: Number(result.lastInsertRowid), at }
}

export function describeChangeSet(db: Db, id: number, description: string): void {
  run(db, sql`UPDATE change_sets SET description = ${description} WHERE id = ${id}`)
}

/**
 * Drops a change set opened in the current transaction that ended up changing nothing (with its
 * source-file rows). Never used on a committed change set: history is not rewritten.
 */
export function discardChangeSet(db: Db, id: number): void {
  run(db, sql`DELETE FROM source_files WHERE change_set_id = ${id}`)
  run(db, sql`DELETE FROM change_sets WHERE id = ${id}`)
}
