import { append } from '../../../shared/lists'
import type { ServerClient } from './connect'
import { type BulkTable, type BulkValue, BULK_TABLES, copyRowsIn, copyRowsOut } from './bulk'

/**
 * The bulk data of one change set made after publishing (an import or an MTurk pull): sent by
 * COPY in the transaction that pushes the change set, fetched by COPY when another replica pulls
 * it. Workers, stories and sentences may be shared with rows the server holds already (ids made
 * from external ids agree), so they go through a scratch table and only new ones are added.
 */
export const IMPORT_TABLES: readonly BulkTable[] = BULK_TABLES.filter((t) => t.name !== 'settings')

const SHARED = new Set(['workers', 'stories', 'sentences'])

const UID = /^[0-9a-f]{32}$/

/**
 * The rows of `table` the change set `uid` brought, as a WHERE clause on the server: its own
 * submissions' and the annotations `added` to submissions of earlier change sets.
 */
function rowsOf(table: string, uid: string, added: readonly number[]): string {
  if (!UID.test(uid)) throw new Error(`not a change set id: ${uid}`)
  if (!added.every(Number.isSafeInteger)) throw new Error('not annotation ids')
  const submissions = `SELECT id FROM winnow.submissions WHERE change_set_uid = '${uid}'`
  const also = (column: string): string =>
    added.length === 0 ? '' : ` OR ${column} = ANY('{${added.join(',')}}'::bigint[])`
  switch (table) {
    case 'workers':
      return `id IN (SELECT worker_id FROM winnow.submissions WHERE change_set_uid = '${uid}')`
    case 'stories':
      return `id IN (SELECT story_id FROM winnow.submissions WHERE change_set_uid = '${uid}')`
    case 'sentences':
      return `story_id IN (SELECT story_id FROM winnow.submissions WHERE change_set_uid = '${uid}')`
    case 'annotations':
      return `submission_id IN (${submissions})${also('id')}`
    case 'annotation_texts':
      return `annotation_id IN (SELECT a.id FROM winnow.annotations a
        JOIN winnow.submissions s ON a.id BETWEEN s.id * 16 AND s.id * 16 + 15
        WHERE s.change_set_uid = '${uid}')${also('annotation_id')}`
    default:
      return `change_set_uid = '${uid}'`
  }
}

/** Whether the log holds the change set already (a push cut off after its commit). */
export async function logHolds(client: ServerClient, uid: string): Promise<boolean> {
  const result = await client.query('SELECT 1 FROM winnow.change_sets WHERE uid = $1', [uid])
  return (result.rowCount ?? 0) > 0
}

/** Sends one table's rows of a change set; call inside the pushing transaction. */
export async function sendImportRows(
  client: ServerClient,
  table: BulkTable,
  rows: Iterable<readonly BulkValue[]>,
): Promise<number> {
  if (!SHARED.has(table.name)) return await copyRowsIn(client, table, rows)
  const scratch = `winnow_import_${table.name}`
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS ${scratch} (LIKE winnow.${table.name}) ON COMMIT DELETE ROWS`,
  )
  const n = await copyRowsIn(client, table, rows, undefined, scratch)
  await client.query(
    `INSERT INTO winnow.${table.name} SELECT * FROM ${scratch} ON CONFLICT DO NOTHING`,
  )
  return n
}

/** Sets a new replica's number (its band of ids). */
export async function takeReplicaNumber(client: ServerClient): Promise<number> {
  const result = await client.query<{ n: string }>(
    `SELECT nextval('winnow.replica_numbers')::text AS n`,
  )
  return Number(result.rows[0]?.n)
}

/** Fetches the rows a change set brought, table by table, parents first. */
export async function fetchImportRows(
  client: ServerClient,
  uid: string,
  added: readonly number[] = [],
): Promise<Map<string, BulkValue[][]>> {
  const rows = new Map<string, BulkValue[][]>()
  for (const table of IMPORT_TABLES) {
    const taken: BulkValue[][] = []
    await copyRowsOut(
      client,
      table,
      (batch) => append(taken, batch),
      5000,
      rowsOf(table.name, uid, added),
    )
    rows.set(table.name, taken)
  }
  return rows
}
