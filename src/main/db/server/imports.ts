import { append } from '../../../shared/lists'
import type { ServerClient } from './connect'
import { COLLECTION_TABLES } from '../../collections/teams'
import type { SharedTable } from '../../collections/team'
import { type BulkTable, type BulkValue, SHARED_TABLES, copyRowsIn, copyRowsOut } from './bulk'
import { keyLiteral } from './bulkTable'

/**
 * The bulk data of one change set made after publishing (an import or an MTurk pull): sent by
 * COPY in the transaction that pushes the change set, fetched by COPY when another replica pulls
 * it. Workers, stories and sentences may be shared with rows the server holds already (ids made
 * from external ids agree), so they go through a scratch table and only new ones are added.
 */
export const IMPORT_TABLES: readonly BulkTable[] = SHARED_TABLES.filter(
  (t) => t.name !== 'settings',
)

const SHARED = new Set(['workers', 'stories', 'sentences'])

const UID = /^[0-9a-f]{32}$/

/**
 * The rows of a collection's table that one change set brought, as a WHERE clause: `own(column)`
 * tells a row of that change set by a table's change set column; a table without one follows its
 * parent row (`owner`). `prefix` is the schema the tables are in (`winnow.` on the server). Null
 * for a table that is not a collection's.
 */
export function collectionRowsOf(
  name: string,
  own: (column: string) => string,
  prefix: string,
): string | null {
  const table = COLLECTION_TABLES.find((t) => t.name === name)
  return table ? ownedRows(table, own, prefix) : null
}

function ownedRows(table: BulkTable, own: (column: string) => string, prefix: string): string {
  const uid = table.columns.find((c) => c.type === 'uid')
  if (uid) return own(uid.name)
  const owner = (table as Partial<SharedTable>).owner
  const parent = owner && SHARED_TABLES.find((t) => t.name === owner.table)
  if (!owner || !parent) throw new Error(`${table.name} names no change set and no owner`)
  return `${owner.column} IN (SELECT id FROM ${prefix}${parent.name}
    WHERE ${ownedRows(parent, own, prefix)})`
}

/** The workers that rows of collections brought by one change set name. */
export function collectionWorkersOf(own: (column: string) => string, prefix: string): string[] {
  return COLLECTION_TABLES.filter((t) => t.worker).map(
    (t) => `id IN (SELECT ${t.worker} FROM ${prefix}${t.name} WHERE ${ownedRows(t, own, prefix)})`,
  )
}

/**
 * The rows of `table` the change set `uid` brought, as a WHERE clause on the server: its own
 * rows, and the annotations `added` to submissions of earlier change sets.
 */
function rowsOf(table: string, uid: string, added: readonly number[]): string {
  if (!UID.test(uid)) throw new Error(`not a change set id: ${uid}`)
  if (!added.every(Number.isSafeInteger)) throw new Error('not annotation ids')
  const own = (column: string): string => `${column} = '${uid}'`
  const collection = collectionRowsOf(table, own, 'winnow.')
  if (collection !== null) return collection
  const submissions = `SELECT id FROM winnow.submissions WHERE change_set_uid = '${uid}'`
  const also = (column: string): string =>
    added.length === 0 ? '' : ` OR ${column} = ANY('{${added.join(',')}}'::bigint[])`
  switch (table) {
    case 'workers':
      return [
        `id IN (SELECT worker_id FROM winnow.submissions WHERE change_set_uid = '${uid}')`,
        ...collectionWorkersOf(own, 'winnow.'),
      ].join(' OR ')
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

/**
 * A row of a collection's shared table that an import found there already and grew (children
 * added, or the row rewritten), by its key. A row an import brought is never one, so two leads
 * bringing one row at once are still told apart (the server's keys refuse the second).
 */
export interface GrownRow {
  table: string
  key: BulkValue[]
}

/**
 * The tables holding a grown row's own row and its children (rows whose `owner` is it), each with
 * a WHERE clause picking them; parents first. `value` writes a key value as SQL.
 */
export function grownRowsWhere(
  grown: readonly GrownRow[],
  value: (v: BulkValue) => string,
): Map<SharedTable, string> {
  const out = new Map<SharedTable, string>()
  for (const table of COLLECTION_TABLES) {
    const own = grown.filter((g) => g.table === table.name)
    const parents = grown.filter((g) => g.table === table.owner?.table)
    const clauses: string[] = []
    if (own.length > 0) {
      clauses.push(
        own
          .map(
            (g) =>
              `(${table.key.map((k, i) => `${k} = ${value(g.key[i] ?? null)}`).join(' AND ')})`,
          )
          .join(' OR '),
      )
    }
    // A child names its parent by the parent's id, its key.
    if (parents.length > 0 && table.owner) {
      clauses.push(
        `${table.owner.column} IN (${parents.map((g) => value(g.key[0] ?? null)).join(', ')})`,
      )
    }
    if (clauses.length > 0) out.set(table, clauses.map((c) => `(${c})`).join(' OR '))
  }
  return out
}

/**
 * Sends rows an import grew (rows the team holds already, and their children): added where the
 * server lacks them and updated where it holds them, the change set that brought each kept; then
 * the counts the declarations derive are worked out again on the server's rows. Call inside the
 * pushing transaction, after the import's own rows.
 */
export async function sendGrownRows(
  client: ServerClient,
  grown: readonly GrownRow[],
  rows: ReadonlyMap<SharedTable, readonly BulkValue[][]>,
): Promise<void> {
  for (const [table, taken] of rows) {
    const scratch = `winnow_grown_${table.name}`
    await client.query(
      `CREATE TEMP TABLE IF NOT EXISTS ${scratch} (LIKE winnow.${table.name}) ON COMMIT DELETE ROWS`,
    )
    await copyRowsIn(client, table, taken, undefined, scratch)
    const updated = table.columns
      .filter((c) => c.type !== 'uid' && !table.key.includes(c.name))
      .map((c) => `${c.name} = excluded.${c.name}`)
    await client.query(
      `INSERT INTO winnow.${table.name} SELECT * FROM ${scratch}
       ON CONFLICT (${table.key.join(', ')}) DO ${updated.length > 0 ? `UPDATE SET ${updated.join(', ')}` : 'NOTHING'}`,
    )
  }
  for (const [table, where] of grownRowsWhere(grown, keyLiteral)) {
    const c = table.counts
    if (!c) continue
    await client.query(
      `UPDATE winnow.${table.name} x SET ${c.column} = (SELECT count(*) FROM winnow.${c.table} r WHERE r.${c.by} = x.id)
       WHERE ${where}`,
    )
  }
}

/** Fetches the rows change sets grew (an envelope's `grownRows`) and their children, by table. */
export async function fetchGrownRows(
  client: ServerClient,
  grown: readonly GrownRow[],
): Promise<Map<string, BulkValue[][]>> {
  const rows = new Map<string, BulkValue[][]>()
  for (const [table, where] of grownRowsWhere(grown, keyLiteral)) {
    const taken: BulkValue[][] = []
    await copyRowsOut(client, table, (batch) => append(taken, batch), 5000, where)
    rows.set(table.name, taken)
  }
  return rows
}
