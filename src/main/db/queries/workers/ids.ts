import type { Db } from '../../connection'
import { pluck, run } from '../../connection'
import { sql } from '../../sql'

// Apart from workers.ts, whose panel and search bring the contract's schemas (zod) onto the
// import and pull threads.

/** The worker's id, added the first time any collection's import or pull names them. */
export function findOrAddWorker(db: Db, externalId: string): number {
  const known = pluck<number>(db, sql`SELECT id FROM workers WHERE external_id = ${externalId}`)
  if (known !== undefined) return known
  return Number(
    run(db, sql`INSERT INTO workers (external_id) VALUES (${externalId})`).lastInsertRowid,
  )
}
