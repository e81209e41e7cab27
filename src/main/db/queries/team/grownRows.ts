import type { Db } from '../../connection'
import type { BulkValue } from '../../server/bulk'
import { keyLiteral } from '../../server/bulkTable'
import { COLLECTION_TABLES } from '../../../collections/teams'
import type { SharedTable } from '../../../collections/team'
import { localColumn } from './bulk'
import { isPending } from './state'
import { type GrownRow, grownRowsWhere } from '../../server/imports'

/*
 * Rows an import grew (`GrownRow`): recorded when the import writes them (migration 021), pushed
 * to be updated on the server rather than inserted, and written over here when another replica's
 * import grew them.
 */

export type { GrownRow }

function tableOf(name: string): SharedTable {
  const table = COLLECTION_TABLES.find((t) => t.name === name)
  if (!table) throw new Error(`${name} is not a collection's shared table`)
  return table
}

const changeSetColumn = (table: SharedTable): string | undefined =>
  table.columns.some((c) => c.type === 'uid') ? 'change_set_id' : undefined

/**
 * Records that change set `changeSetId` is about to grow the row of `table` under `key`, if
 * another change set brought it. Call before writing the row.
 */
export function noteGrownRow(db: Db, changeSetId: number, table: string, key: BulkValue[]): void {
  const shared = tableOf(table)
  const column = changeSetColumn(shared)
  const where = shared.key.map((k) => `${k} = ?`).join(' AND ')
  const other = column === undefined ? '' : ` AND ${column} <> ${Math.trunc(changeSetId)}`
  const held = db.prepare(`SELECT 1 FROM ${table} WHERE ${where}${other}`).get(key)
  if (held === undefined) return
  db.prepare(
    'INSERT OR IGNORE INTO grown_rows (change_set_id, table_name, row_key) VALUES (?, ?, ?)',
  ).run(changeSetId, table, JSON.stringify(key))
}

export function grownRowsOf(db: Db, changeSetId: number): GrownRow[] {
  const rows = db
    .prepare(
      'SELECT table_name AS tableName, row_key AS rowKey FROM grown_rows WHERE change_set_id = ? ORDER BY 1, 2',
    )
    .all(changeSetId) as { tableName: string; rowKey: string }[]
  return rows.map((r) => ({ table: r.tableName, key: JSON.parse(r.rowKey) as BulkValue[] }))
}

/** The rows a change set grew and their children, by table, as COPY sends them. */
export function grownRowValues(db: Db, changeSetId: number): Map<SharedTable, BulkValue[][]> {
  const rows = new Map<SharedTable, BulkValue[][]>()
  for (const [table, where] of grownRowsWhere(grownRowsOf(db, changeSetId), keyLiteral)) {
    const columns = table.columns.map(localColumn).join(', ')
    rows.set(
      table,
      db
        .prepare(`SELECT ${columns} FROM ${table.name} x WHERE ${where}`)
        .raw()
        .all() as BulkValue[][],
    )
  }
  return rows
}

/**
 * Writes over this replica's copy of rows another replica's import grew, inside the caller's
 * transaction and before that import's own rows (which may name them); a row this replica's own
 * pending work grew too keeps what it holds here (that push comes later and stands). Counts are
 * worked out again after the import's rows (`recountGrownRows`).
 */
export function writeGrownRows(
  db: Db,
  grown: readonly GrownRow[],
  rows: ReadonlyMap<string, readonly BulkValue[][]>,
  changeSetId: number,
): void {
  const mine = new Set(
    grown
      .filter((g) => pendingGrowers(db, g).length > 0)
      .map((g) => `${g.table}\u0000${JSON.stringify(g.key)}`),
  )
  const ours = (table: SharedTable, row: readonly BulkValue[]): boolean => {
    const at = (name: string): number => table.columns.findIndex((c) => c.name === name)
    const key = table.key.map((k) => row[at(k)] ?? null)
    if (mine.has(`${table.name}\u0000${JSON.stringify(key)}`)) return true
    const owner = table.owner
    return (
      owner !== undefined &&
      mine.has(`${owner.table}\u0000${JSON.stringify([row[at(owner.column)] ?? null])}`)
    )
  }
  // A child holding a placed row's natural key under another key was an import that gave way
  // (`clashingGrowers`): it goes, and the placed row comes in its place.
  for (const table of COLLECTION_TABLES) {
    const at = (name: string): number => table.columns.findIndex((c) => c.name === name)
    for (const unique of table.owner ? (table.unique ?? []) : []) {
      const remove = db.prepare(
        `DELETE FROM ${table.name} WHERE ${unique.map((k) => `${k} = ?`).join(' AND ')}
           AND NOT (${table.key.map((k) => `${k} IS ?`).join(' AND ')})`,
      )
      for (const row of rows.get(table.name) ?? []) {
        if (ours(table, row)) continue
        remove.run([...unique, ...table.key].map((k) => row[at(k)] ?? null))
      }
    }
  }
  for (const table of COLLECTION_TABLES) {
    const taken = rows.get(table.name) ?? []
    if (taken.length === 0) continue
    const names = table.columns.map((c) => (c.type === 'uid' ? 'change_set_id' : c.name))
    const updated = table.columns
      .filter((c) => c.type !== 'uid' && !table.key.includes(c.name))
      .map((c) => `${c.name} = excluded.${c.name}`)
    const insert = `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})
       ON CONFLICT (${table.key.join(', ')}) DO`
    const upsert = db.prepare(
      `${insert} ${updated.length > 0 ? `UPDATE SET ${updated.join(', ')}` : 'NOTHING'}`,
    )
    // Rows this replica's pending work grew keep what it wrote; what they lack still comes.
    const add = db.prepare(`${insert} NOTHING`)
    const uidAt = table.columns.findIndex((c) => c.type === 'uid')
    for (const row of taken) {
      const values = [...row]
      if (uidAt >= 0) values[uidAt] = changeSetId
      ;(ours(table, row) ? add : upsert).run(values)
    }
  }
}

/** Works out again the counts the declarations derive, for the rows under grown parents. */
export function recountGrownRows(db: Db, grown: readonly GrownRow[]): void {
  for (const [table, where] of grownRowsWhere(grown, keyLiteral)) {
    const c = table.counts
    if (!c) continue
    db.prepare(
      `UPDATE ${table.name} SET ${c.column} = (SELECT count(*) FROM ${c.table} r WHERE r.${c.by} = ${table.name}.id)
       WHERE ${where}`,
    ).run()
  }
}

/**
 * This replica's pending change sets that grew a parent under which they added a row clashing,
 * by a natural key, with a row another replica's import placed (two leads adding one answer to a
 * question at once): the server refuses them, so they give way.
 */
export function clashingGrowers(
  db: Db,
  grown: readonly GrownRow[],
  rows: ReadonlyMap<string, readonly BulkValue[][]>,
): Map<number, string> {
  const out = new Map<number, string>()
  for (const table of COLLECTION_TABLES) {
    const owner = table.owner
    if (!owner || !grown.some((g) => g.table === owner.table)) continue
    const at = (name: string): number => table.columns.findIndex((c) => c.name === name)
    for (const unique of table.unique ?? []) {
      const find = db.prepare(
        `SELECT ${table.key.join(', ')} FROM ${table.name} WHERE ${unique.map((k) => `${k} = ?`).join(' AND ')}`,
      )
      for (const row of rows.get(table.name) ?? []) {
        const local = find.raw().get(unique.map((k) => row[at(k)] ?? null)) as
          BulkValue[] | undefined
        if (
          !local ||
          JSON.stringify(local) === JSON.stringify(table.key.map((k) => row[at(k)] ?? null))
        )
          continue
        const parent = { table: owner.table, key: [row[at(owner.column)] ?? null] }
        for (const id of pendingGrowers(db, parent)) {
          if (!out.has(id))
            out.set(
              id,
              `${table.name} ${unique.join(' / ')} ${unique.map((k) => String(row[at(k)])).join(' / ')}`,
            )
        }
      }
    }
  }
  return out
}

/** This replica's pending change sets that grew the row too. */
function pendingGrowers(db: Db, grown: GrownRow): number[] {
  const ids = db
    .prepare('SELECT change_set_id FROM grown_rows WHERE table_name = ? AND row_key = ?')
    .pluck()
    .all(grown.table, JSON.stringify(grown.key)) as number[]
  return ids.filter((id) => isPending(db, id))
}
