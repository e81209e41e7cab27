import type { ChangeSetKind, ChangeSetSummary } from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import { REVERTABLE_SUBJECTS } from '../changes/entries'
import { hasEntries } from '../db/queries/changes/entries'
import {
  type ChangeSetRow,
  changeSetById,
  listChangeSets,
  revertLinks,
} from '../db/queries/changes/history'

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

/** Kinds whose change sets only add (a queue, drawn items, a CROWDAQ or ProtoQA version). */
const ADDING: ReadonlySet<ChangeSetKind> = new Set(['crowdaq', 'protoqa'])
/** Kinds that revert through the entries they set (a mark, a verdict, a setting). */
const SETTING: ReadonlySet<ChangeSetKind> = new Set(['triage', 'audit', 'setting'])

/** Whether a revert of the change set can do anything (History offers Revert… only then). */
export function isRevertable(db: Db, row: ChangeSetRow): boolean {
  if (ADDING.has(row.kind)) return false
  if (SETTING.has(row.kind)) return hasEntries(db, row.id, REVERTABLE_SUBJECTS)
  return true
}

export function summarizeChangeSet(
  row: ChangeSetRow,
  revertedBy: ReadonlyMap<number, number>,
  revertable: boolean,
  revertOf: ChangeSetSummary['revertOf'] = null,
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
    revertOf,
    revertable,
  }
}

/**
 * What reverting `target` does, in the words of the change it finally acts on: reverting a
 * rating undoes it, reverting that revert redoes the rating, and so on down the chain.
 */
export function revertOutcome(
  db: Db,
  target: ChangeSetRow,
): { original: ChangeSetRow; redo: boolean; description: string } {
  let original = target
  let redo = false
  while (original.kind === 'revert' && original.reverts !== null) {
    const next = changeSetById(db, original.reverts)
    if (!next) break
    original = next
    redo = !redo
  }
  const description = `${redo ? 'Redo' : 'Undo'} #${original.id}: ${original.description}`
  return { original, redo, description }
}

export function history(
  db: Db,
  page: { limit?: number; beforeId?: number } = {},
): ChangeSetSummary[] {
  const revertedBy = revertedByMap(db)
  return listChangeSets(db, page).map((row) => {
    const revertable = isRevertable(db, row)
    const target = row.kind === 'revert' && row.reverts !== null && changeSetById(db, row.reverts)
    if (!target) return summarizeChangeSet(row, revertedBy, revertable)
    // Told from the chain, so projects whose reverts were written "Revert 4: Revert 3: …" read
    // the same as new ones.
    const { original, redo, description } = revertOutcome(db, target)
    return summarizeChangeSet({ ...row, description }, revertedBy, revertable, {
      id: original.id,
      redo,
      kind: original.kind,
    })
  })
}
