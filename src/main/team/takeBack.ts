import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { deleteImportRows, holdersOfKeys, wroteSubmissions } from '../db/queries/team/imports'
import { isPending, setWithdrawn } from '../db/queries/team/state'
import type { BulkValue } from '../db/server/bulk'
import { type GrownRow, clashingGrowers } from '../db/queries/team/grownRows'

/**
 * An import of collection data the team holds already (another lead imported the same question,
 * exam or attempt first, and the server refused this one) is taken back here: marked withdrawn,
 * so it never travels, and its rows removed, so the team's rows can come in their place. History
 * keeps it. Inside the caller's transaction.
 */
export function takeBackImport(db: Db, changeSetId: number, reason: string): void {
  if (wroteSubmissions(db, changeSetId)) {
    throw new UserError({
      type: 'conflict',
      code: 'not-revertable',
      message: `Change set ${changeSetId} imported submissions; only an import of collection data can be taken back here.`,
      field: 'changeSetId',
    })
  }
  setWithdrawn(db, changeSetId, reason)
  try {
    deleteImportRows(db, changeSetId)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw error
    throw new UserError({
      type: 'conflict',
      code: 'not-revertable',
      message: `Change set ${changeSetId} cannot be taken back here: later work (a clustering, an edit) rests on its rows. Revert that work first.`,
      field: 'changeSetId',
    })
  }
}

/**
 * Before another replica's import is written: this replica's pending imports holding a row under
 * one of its keys can never be placed (the server holds that key now), so they give way, taken
 * back here, and the log's rows stand as on every other replica.
 */
export function giveWayTo(
  db: Db,
  rows: ReadonlyMap<string, readonly BulkValue[][]>,
  grown: { rows: readonly GrownRow[]; values: ReadonlyMap<string, readonly BulkValue[][]> } = {
    rows: [],
    values: new Map(),
  },
): void {
  const holders = holdersOfKeys(db, rows)
  for (const [id, row] of clashingGrowers(db, grown.rows, grown.values))
    if (!holders.has(id)) holders.set(id, row)
  for (const [id, row] of holders) {
    if (!isPending(db, id)) continue
    takeBackImport(db, id, `the team holds ${row} already (another lead imported it first)`)
  }
}
