import type { ChangeSetSummary } from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import { type ChangeSetRow, listChangeSets, revertLinks } from '../db/queries/history'

/**
 * Which revert currently undoes each change set. A revert is in force unless a later revert undoes
 * it, so walking reverts newest first settles every chain (revert of a revert of …) in one pass.
 */
export function revertedByMap(db: Db): Map<number, number> {
  const revertedBy = new Map<number, number>()
  for (const link of revertLinks(db)) {
    if (revertedBy.has(link.id)) continue
    if (!revertedBy.has(link.reverts)) revertedBy.set(link.reverts, link.id)
  }
  return revertedBy
}

export function summarizeChangeSet(
  row: ChangeSetRow,
  revertedBy: ReadonlyMap<number, number>,
): ChangeSetSummary {
  return {
    id: row.id,
    kind: row.kind,
    at: row.at,
    author: row.author,
    description: row.description,
    changed: row.changed,
    transitions: row.transitions,
    reverts: row.reverts,
    revertedBy: revertedBy.get(row.id) ?? null,
  }
}

export function history(
  db: Db,
  page: { limit?: number; beforeId?: number } = {},
): ChangeSetSummary[] {
  const revertedBy = revertedByMap(db)
  return listChangeSets(db, page).map((row) => summarizeChangeSet(row, revertedBy))
}
