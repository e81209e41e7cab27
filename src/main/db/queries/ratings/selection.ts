import type { Db } from '../../connection'
import { pluckAll } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { idList } from './rows'

/** Which annotations an item-rating action is about, as queries yielding a column `id`. */

export function annotationsById(ids: readonly number[]): SqlFragment {
  return sql`SELECT id FROM annotations WHERE id IN ${idList(ids)}`
}

export function annotationsOfSubmissions(ids: readonly number[]): SqlFragment {
  return sql`SELECT id FROM annotations WHERE submission_id IN ${idList(ids)}`
}

/** A selection of no annotations. */
export const nothing = sql`SELECT id FROM annotations WHERE 0`

export function union(parts: readonly SqlFragment[]): SqlFragment {
  return sql.join(parts, ' UNION ')
}

/** The ids of the list that name no row of the table. */
export function missingIds(
  db: Db,
  table: 'annotations' | 'submissions',
  ids: readonly number[],
): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT value FROM json_each(${JSON.stringify(ids)})
        WHERE value NOT IN (SELECT id FROM ${sql.raw(table)} WHERE id IN ${idList(ids)})`,
  )
}
