import type { SortColumn, SortSpec } from '../../../../shared/filter'
import type { ReviewCursor, SortValue } from '../../../../shared/contract/review'
import { UserError } from '../../../../shared/contract/errors'
import { type SqlFragment, sql } from '../../sql'
import { type IndexColumn, type IndexName, NULLABLE_COLUMNS, REVIEW_INDEXES } from './indexes'

/**
 * Each sort is a total order: its key columns, then the annotation id. Index-backed sorts use the
 * whole column list of their index as the key, so the index walk is the order and a page after a
 * cursor starts with a seek instead of a scan.
 */
interface SortKey {
  /** SQL over alias `a` (and `se`/`t` when `join` says so). Allow-listed text, never input. */
  expr: string
  nullable: boolean
}

export interface SortDef {
  /** The index kept in this order; 'table' walks the rowid order; null sorts in memory. */
  index: IndexName | 'table' | null
  keys: SortKey[]
  join?: 'sentence' | 'texts'
}

const k = (expr: string, nullable = false): SortKey => ({ expr, nullable })

/** An index-backed sort: the index's columns are the key. */
function indexed(index: IndexName): SortDef {
  const columns = REVIEW_INDEXES[index] as readonly IndexColumn[]
  return { index, keys: columns.map((c) => k(`a.${c}`, NULLABLE_COLUMNS.has(c))) }
}

const SORTS: Record<SortColumn, SortDef> = {
  id: { index: 'table', keys: [] },
  workerId: indexed('ann_worker'),
  rating: indexed('ann_rating'),
  dimension: indexed('ann_dimension'),
  submittedAt: indexed('ann_date'),
  storyId: indexed('ann_story'),
  submissionId: { index: null, keys: [k('a.submission_id'), k('a.dimension')] },
  sentenceIndex: { index: null, keys: [k('a.sentence_index')] },
  flags: { index: null, keys: [k('a.flags')] },
  sentence: { index: null, keys: [k('se.text COLLATE NOCASE', true)], join: 'sentence' },
  specificNL: { index: null, keys: [k('t.specific_nl COLLATE NOCASE')], join: 'texts' },
  generalNL: { index: null, keys: [k('t.general_nl COLLATE NOCASE')], join: 'texts' },
}

export function sortDef(column: SortColumn): SortDef {
  return SORTS[column]
}

/** `ORDER BY` terms: the keys then the id (as the plan names it), all in the one direction. */
export function orderBy(
  def: SortDef,
  direction: SortSpec['direction'],
  idExpr = 'a.id',
): SqlFragment {
  const dir = direction === 'desc' ? ' DESC' : ''
  return sql.raw([...def.keys.map((key) => key.expr), idExpr].map((e) => e + dir).join(', '))
}

/** The key columns selected beside the id, aliased k0…kn, so the last row gives the cursor. */
export function keyColumns(def: SortDef): SqlFragment {
  return sql.raw(
    def.keys.map((key, i) => `, ${key.expr.replace(/ COLLATE \w+$/, '')} AS k${i}`).join(''),
  )
}

export function cursorOf(def: SortDef, row: Record<string, unknown>): ReviewCursor {
  return {
    key: def.keys.map((_, i) => (row[`k${i}`] ?? null) as SortValue),
    id: row.id as number,
  }
}

/**
 * Rows strictly after `cursor` in the sort order, as segments to read one after the other. NULLs
 * come first ascending (SQLite's order and the indexes'): "after NULL" ascending is any value, and
 * only NULLs follow a NULL descending. Each segment starts with a bound on the leading key so the
 * planner seeks; a descending walk past the last value of a nullable key continues in a second
 * segment holding its NULLs (one OR would cost the seek).
 */
export function afterCursor(
  def: SortDef,
  direction: SortSpec['direction'],
  cursor: ReviewCursor,
  idExpr = 'a.id',
): SqlFragment[] {
  if (cursor.key.length !== def.keys.length) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-cursor',
      message: 'The page cursor belongs to another sort; start from the first page.',
      field: 'page.after',
    })
  }
  const desc = direction === 'desc'
  const after = (i: number): SqlFragment => {
    const id = sql.raw(idExpr)
    if (i === def.keys.length) return desc ? sql`${id} < ${cursor.id}` : sql`${id} > ${cursor.id}`
    const key = def.keys[i] as SortKey
    const v = cursor.key[i] as SortValue
    const e = sql.raw(key.expr)
    const eq = v === null ? sql`${e} IS NULL` : sql`${e} = ${v}`
    let gt: SqlFragment | null
    if (!desc) gt = v === null ? sql`${e} IS NOT NULL` : sql`${e} > ${v}`
    else if (v === null) gt = null
    else gt = key.nullable && i > 0 ? sql`(${e} < ${v} OR ${e} IS NULL)` : sql`${e} < ${v}`
    const rest = sql`(${eq} AND ${after(i + 1)})`
    return gt ? sql`(${gt} OR ${rest})` : rest
  }
  const first = def.keys[0]
  const v0 = cursor.key[0] ?? null
  if (!first) return [after(0)]
  const e0 = sql.raw(first.expr)
  if (!desc) return [v0 === null ? after(0) : sql`${e0} >= ${v0} AND ${after(0)}`]
  if (v0 === null) return [sql`${e0} IS NULL AND ${after(0)}`]
  const values = sql`${e0} <= ${v0} AND ${after(0)}`
  return first.nullable ? [values, sql`${e0} IS NULL`] : [values]
}
