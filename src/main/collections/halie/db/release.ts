import type { HalieTable, HalieTask } from '../../../../shared/halie/tasks'
import type { Db } from '../../../db/connection'
import { all } from '../../../db/connection'
import { sql } from '../../../db/sql'

/** What a HALIE release reads: a task's tables with their rows in file order. */

export interface ReleaseTable {
  id: number
  kind: HalieTable
  header: string[]
  sourceName: string
}

export function taskTables(db: Db, task: HalieTask): ReleaseTable[] {
  return all<{ id: number; kind: HalieTable; header: string; sourceName: string }>(
    db,
    sql`SELECT t.id AS id, t.kind AS kind, t.header AS header, f.name AS sourceName
        FROM halie_tables AS t JOIN source_files AS f ON f.id = t.source_file_id
        WHERE t.task = ${task}
        ORDER BY CASE t.kind WHEN 'event_blocks' THEN 0 WHEN 'survey_responses' THEN 1 ELSE 2 END`,
  ).map((t) => ({ ...t, header: JSON.parse(t.header) as string[] }))
}

/** A table's rows in the order of its file: `[id, session_id, cells JSON, own rating]`. */
export function tableRows(
  db: Db,
  tableId: number,
): IterableIterator<[number, number, string, number | null]> {
  const query = sql`SELECT id, session_id, cells, rating FROM halie_rows WHERE table_id = ${tableId}
    ORDER BY line`
  // A statement of its own (not the shared cache): `raw` changes the statement.
  return db
    .prepare(query.text)
    .raw(true)
    .iterate(...query.values) as IterableIterator<[number, number, string, number | null]>
}

/** The sessions of a task, by id. */
export function taskSessionIds(db: Db, task: HalieTask): number[] {
  return all<{ id: number }>(
    db,
    sql`SELECT id FROM halie_sessions WHERE task = ${task} ORDER BY id`,
  ).map((r) => r.id)
}

/** Change sets that rated HALIE work by `until` (epoch ms), and the reverts of them, oldest first. */
export function halieRatingChangeSets(
  db: Db,
  until: number,
): {
  id: number
  kind: string
  author: string
  createdAt: number
  description: string
  reverts: number | null
}[] {
  return all(
    db,
    sql`SELECT c.id AS id, c.kind AS kind, c.author AS author, c.created_at AS createdAt,
          c.description AS description, c.reverts AS reverts
        FROM change_sets AS c
        WHERE c.created_at <= ${until} AND (
          EXISTS (SELECT 1 FROM change_entries AS e
                  WHERE e.change_set_id = c.id AND e.subject = 'halie.rating')
          OR EXISTS (SELECT 1 FROM change_entries AS e
                  WHERE e.change_set_id = c.reverts AND e.subject = 'halie.rating'))
        ORDER BY c.id`,
  )
}
