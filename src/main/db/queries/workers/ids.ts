import type { Db } from '../../connection'
import { pluck, run } from '../../connection'
import { sql } from '../../sql'
import { replicaNumber, sharedRowId } from '../team/ids'

// Apart from workers.ts, whose panel and search bring the contract's schemas (zod) onto the
// import and pull threads.

/**
 * The worker's id, added the first time any collection's import or pull names them; on a team
 * replica made from the external id, as GLUCOSE's imports make it, so replicas agree.
 */
export function findOrAddWorker(db: Db, externalId: string): number {
  const known = pluck<number>(db, sql`SELECT id FROM workers WHERE external_id = ${externalId}`)
  if (known !== undefined) return known
  const shared = replicaNumber(db) === null ? null : sharedRowId(db, 'worker', externalId)
  return Number(
    run(db, sql`INSERT INTO workers (id, external_id) VALUES (${shared}, ${externalId})`)
      .lastInsertRowid,
  )
}
