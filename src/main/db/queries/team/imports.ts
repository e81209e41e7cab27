import type { Db } from '../../connection'
import { pluck, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import type { BulkTable, BulkValue } from '../../server/bulk'
import { collectionRowsOf, collectionWorkersOf } from '../../server/imports'
import {
  COLLECTION_TABLES,
  SHARED_IMPORT_FORMATS,
  earlierWorkersOf,
} from '../../../collections/teams'
import { localColumn } from './bulk'
import { recordAddedAnnotations } from '../submissions'
import type { Band } from './ids'

/**
 * The project's side of an import or MTurk pull made after publishing: its rows read to push
 * (tables and columns from the server's `IMPORT_TABLES`), and another replica's rows written
 * when pulled, then readied as a join readies its rows (search backlog; ratings from the log).
 */
function rowsOf(table: string, changeSetId: number): string {
  const id = Math.trunc(changeSetId)
  const own = (): string => `change_set_id = ${id}`
  const collection = collectionRowsOf(table, own, '')
  if (collection !== null) return collection
  const submissions = `SELECT id FROM submissions WHERE change_set_id = ${id}`
  const added = `SELECT annotation_id FROM added_annotations WHERE change_set_id = ${id}`
  switch (table) {
    case 'workers':
      return [
        `id IN (SELECT worker_id FROM submissions WHERE change_set_id = ${id})`,
        ...collectionWorkersOf(own, ''),
        // Workers it set on rows earlier change sets brought: the server holds every worker named.
        ...earlierWorkersOf(id),
      ].join(' OR ')
    case 'stories':
      return `id IN (SELECT story_id FROM submissions WHERE change_set_id = ${id})`
    case 'sentences':
      return `story_id IN (SELECT story_id FROM submissions WHERE change_set_id = ${id})`
    case 'annotations':
      return `(submission_id IN (${submissions}) OR id IN (${added}))`
    case 'annotation_texts':
      return `(annotation_id IN (SELECT a.id FROM annotations a
        JOIN submissions s ON a.id BETWEEN s.id * 16 AND s.id * 16 + 15
        WHERE s.change_set_id = ${id}) OR annotation_id IN (${added}))`
    default:
      return `change_set_id = ${id}`
  }
}

export function importRows(db: Db, table: BulkTable, changeSetId: number): Iterable<BulkValue[]> {
  const columns = table.columns.map(localColumn).join(', ')
  return db
    .prepare(`SELECT ${columns} FROM ${table.name} x WHERE ${rowsOf(table.name, changeSetId)}`)
    .raw()
    .iterate() as Iterable<BulkValue[]>
}

/** Whether a change set wrote submissions or source files outside the band (before it had one). */
export function outsideBand(db: Db, changeSetId: number, band: Band): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM submissions WHERE change_set_id = ${changeSetId}
            AND id NOT BETWEEN ${band.first} AND ${band.last})
          OR EXISTS (SELECT 1 FROM source_files WHERE change_set_id = ${changeSetId}
            AND id NOT BETWEEN ${band.first} AND ${band.last})`,
    ) === 1
  )
}

/**
 * Formats of a change set's source files whose rows do not travel: neither GLUCOSE's nor a
 * collection's that shares its imports (`importFormats` of its team declaration).
 */
export function otherFormats(db: Db, changeSetId: number): string[] {
  const formats = db
    .prepare(
      `SELECT DISTINCT format FROM source_files WHERE change_set_id = ? AND format NOT LIKE 'glucose-%'
       ORDER BY format`,
    )
    .pluck()
    .all(changeSetId) as string[]
  return formats.filter((f) => !SHARED_IMPORT_FORMATS.has(f))
}

/** Rows shared with what a replica may hold already: the same id names the same row. */
const SHARED = new Set(['workers', 'stories', 'sentences'])

/**
 * Writes the rows another replica's change set brought, into change set `changeSetId`, inside
 * the caller's transaction; then lists their texts for search and stories for story search, and
 * drops the file ratings waiting for reconstruction (the change set's rating rows are in the log).
 */
export function insertImportRows(
  db: Db,
  tables: readonly BulkTable[],
  rows: ReadonlyMap<string, readonly BulkValue[][]>,
  changeSetId: number,
): void {
  for (const table of tables) {
    const names = table.columns.map((c) => (c.type === 'uid' ? 'change_set_id' : c.name))
    const verb = SHARED.has(table.name) ? 'INSERT OR IGNORE' : 'INSERT'
    const insert = db.prepare(
      `${verb} INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    )
    const uidAt = table.columns.findIndex((c) => c.type === 'uid')
    for (const row of rows.get(table.name) ?? []) {
      const values = [...row]
      if (uidAt >= 0) values[uidAt] = changeSetId
      const done = insert.run(values)
      if (table.name === 'stories' && done.changes > 0) {
        db.prepare('INSERT INTO story_search (rowid, text) VALUES (?, ?)').run(row[0], row[2])
      }
    }
  }
  // Pulled annotations of submissions an earlier change set wrote: this one added them (the
  // first column is the annotation's id).
  const pulled = (rows.get('annotations') ?? []).map((row) => row[0] ?? null)
  if (pulled.length > 0) recordAddedAnnotations(db, pulled, changeSetId)
  const annotations = importedAnnotations([changeSetId])
  run(db, sql`DELETE FROM rating_pending WHERE annotation_id IN (${annotations})`)
  run(db, sql`INSERT OR IGNORE INTO search_backlog (annotation_id) ${annotations}`)
}

/**
 * The submissions a change set added annotations to that an earlier one wrote, each with the
 * dimensions it added (a bit `1 << d` each) and the submission's flags after it.
 */
export interface GrownSubmission {
  id: number
  dimensions: number
  flags: number
}

export function grownSubmissions(db: Db, changeSetId: number): GrownSubmission[] {
  const rows = db
    .prepare(
      `SELECT s.id AS id, group_concat(x.annotation_id - s.id * 16) AS dims, s.flags AS flags
       FROM added_annotations x JOIN submissions s ON s.id = x.annotation_id >> 4
       WHERE x.change_set_id = ? GROUP BY s.id ORDER BY s.id`,
    )
    .all(changeSetId) as { id: number; dims: string; flags: number }[]
  return rows.map((r) => ({
    id: r.id,
    dimensions: r.dims.split(',').reduce((bits, d) => bits | (1 << Number(d)), 0),
    flags: r.flags,
  }))
}

/** Sets the flags a change set left on submissions it added annotations to (pulled, joined). */
export function setGrownFlags(db: Db, grown: readonly GrownSubmission[]): void {
  const update = db.prepare('UPDATE submissions SET flags = ? WHERE id = ?')
  for (const g of grown) update.run(g.flags, g.id)
}

/** The annotations the given change sets imported (column `id`), added ones included. */
export function importedAnnotations(changeSetIds: readonly number[]): SqlFragment {
  const ids = JSON.stringify(changeSetIds)
  return sql`SELECT a.id FROM submissions s
    JOIN annotations a ON a.id BETWEEN s.id * 16 AND s.id * 16 + 15
    WHERE s.change_set_id IN (SELECT value FROM json_each(${ids}))
    UNION SELECT annotation_id FROM added_annotations
    WHERE change_set_id IN (SELECT value FROM json_each(${ids}))`
}

/**
 * Removes what an import of collection data wrote (its collection rows, children first, and its
 * source files), inside the caller's transaction: an import the team holds already, taken back
 * here. The caller checks it wrote no submissions.
 */
export function deleteImportRows(db: Db, changeSetId: number): void {
  for (const table of [...COLLECTION_TABLES].reverse()) {
    db.prepare(`DELETE FROM ${table.name} WHERE ${rowsOf(table.name, changeSetId)}`).run()
  }
  run(db, sql`DELETE FROM source_files WHERE change_set_id = ${changeSetId}`)
}

/** Whether a change set wrote submissions or added annotations (GLUCOSE data). */
export function wroteSubmissions(db: Db, changeSetId: number): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM submissions WHERE change_set_id = ${changeSetId})
          OR EXISTS (SELECT 1 FROM added_annotations WHERE change_set_id = ${changeSetId})`,
    ) === 1
  )
}

/**
 * The local change sets holding a row under one of the keys (its own or a natural one) of rows
 * another replica's import brought, in the collection tables that name their change set.
 */
export function holdersOfKeys(
  db: Db,
  rows: ReadonlyMap<string, readonly BulkValue[][]>,
): Map<number, string> {
  const holders = new Map<number, string>()
  for (const table of COLLECTION_TABLES) {
    const pulled = rows.get(table.name) ?? []
    if (pulled.length === 0 || !table.columns.some((c) => c.type === 'uid')) continue
    for (const key of [table.key, ...(table.unique ?? [])]) {
      const at = key.map((name) => table.columns.findIndex((c) => c.name === name))
      const holder = db
        .prepare(
          `SELECT change_set_id FROM ${table.name} WHERE ${key.map((k) => `${k} = ?`).join(' AND ')}`,
        )
        .pluck()
      for (const row of pulled) {
        const values = at.map((i) => row[i] ?? null)
        const id = holder.get(values) as number | undefined
        if (id !== undefined && !holders.has(id)) {
          holders.set(id, `${table.name} ${key.join(' / ')} ${values.join(' / ')}`)
        }
      }
    }
  }
  return holders
}
