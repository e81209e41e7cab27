import type { SortColumn, SortSpec } from '../../../shared/filter'
import type { ReviewCursor, SortValue } from '../../../shared/contract/review'
import { UserError } from '../../../shared/contract/errors'
import { type SqlFragment, sql } from '../sql'
import type { IndexName } from './reviewIndexes'

/**
 * Each sort is a total order: its key columns, then the annotation id. Index-backed sorts use the
 * whole column list of their index as the key, so the index walk is the order and a page after a
 * cursor starts with a seek instead of a scan.
 */
export interface SortKey {
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

const SORTS: Record<SortColumn, SortDef> = {
  id: { index: 'table', keys: [] },
  workerId: {
    index: 'ann_worker',
    keys: [k('a.worker_id', true), k('a.submitted_at', true), k('a.dimension'), k('a.rating', true), k('a.flags')],
  },
  rating: {
    index: 'ann_rating',
    keys: [k('a.rating', true), k('a.worker_id', true), k('a.submitted_at', true), k('a.dimension'), k('a.flags')],
  },
  dimension: {
    index: 'ann_dimension',
    keys: [k('a.dimension'), k('a.rating', true), k('a.worker_id', true), k('a.submitted_at', true), k('a.flags')],
  },
  submittedAt: {
    index: 'ann_date',
    keys: [k('a.submitted_at', true), k('a.dimension'), k('a.worker_id', true), k('a.flags')],
  },
  storyId: {
    index: 'ann_story',
    keys: [
      k('a.story_id'),
      k('a.sentence_index'),
      k('a.dimension'),
      k('a.worker_id', true),
      k('a.submitted_at', true),
      k('a.flags'),
    ],
  },
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

/** `ORDER BY` terms: the keys then the id, all in the one direction. */
export function orderBy(def: SortDef, direction: SortSpec['direction']): SqlFragment {
  const dir = direction === 'desc' ? ' DESC' : ''
  return sql.raw([...def.keys.map((key) => key.expr), 'a.id'].map((e) => e + dir).join(', '))
}

/** The key columns selected beside the id, aliased k0…kn, so the last row gives the cursor. */
export function keyColumns(def: SortDef): SqlFragment {
  return sql.raw(def.keys.map((key, i) => `, ${key.expr.replace(/ COLLATE \w+$/, '')} AS k${i}`).join(''))
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
    if (i === def.keys.length) return desc ? sql`a.id < ${cursor.id}` : sql`a.id > ${cursor.id}`
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
