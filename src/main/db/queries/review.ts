import { UserError } from '../../../shared/contract/errors'
import type { ReviewCursor, ReviewPage } from '../../../shared/contract/review'
import {
  type AnnotationFilter,
  type SortSpec,
  DEFAULT_SORT,
  UNINDEXED_SORT_LIMIT,
  filterKey,
} from '../../../shared/filter'
import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { type SqlFragment, sql } from '../sql'
import { annotationRows } from './annotations'
import { type Constraints, hasConstraints, resolveFilter } from './reviewFilter'
import { type Plan, drivingPlan, walkPlan } from './reviewPlan'
import { type SortDef, afterCursor, cursorOf, keyColumns, orderBy, sortDef } from './reviewSort'

/**
 * Up to this many rows a page is cut from the whole (sorted) result; above it the sort's index is
 * walked and the filter tested until the page is full, which stays short because matches are dense.
 */
const WALK_ABOVE = 100_000

/** A page request over the filter vocabulary of src/shared/filter.ts. */
export interface PageRequest {
  filter: AnnotationFilter
  sort?: SortSpec
  limit: number
  after?: ReviewCursor
  offset?: number
}

function countSql(plan: Plan): SqlFragment {
  const parts = plan.branches.map((b) => sql`SELECT count(*) FROM ${plan.from} WHERE ${b}`)
  if (parts.length === 1) return parts[0] as SqlFragment
  return sql`SELECT ${sql.join(
    parts.map((p) => sql`(${p})`),
    ' + ',
  )}`
}

/** The statements that count `c` exactly (exported for the benchmark's shell comparison). */
export function countStatement(db: Db, c: Constraints): SqlFragment | null {
  if (c.none) return null
  if (!hasConstraints(c)) return sql`SELECT count(*) FROM annotations`
  const onlyText = c.fts !== undefined && !hasConstraints({ ...c, fts: undefined })
  // Every annotation has one row in the full-text index: count there, without the join.
  if (onlyText) return sql`SELECT count(*) FROM annotation_search WHERE annotation_search MATCH ${c.fts ?? ''}`
  return countSql(drivingPlan(db, c))
}

// Exact totals per filter, valid while no connection has written (data_version) and this one has
// not either (total_changes): the grid asks for many pages of one filter.
const totals = new WeakMap<Db, { version: string; byFilter: Map<string, number> }>()

function dataVersion(db: Db): string {
  const changes = pluck<number>(db, sql`SELECT total_changes()`)
  return `${String(db.pragma('data_version', { simple: true }))}:${changes}`
}

function countResolved(db: Db, filter: AnnotationFilter, c: Constraints): number {
  const version = dataVersion(db)
  let cache = totals.get(db)
  if (!cache || cache.version !== version) {
    cache = { version, byFilter: new Map() }
    totals.set(db, cache)
  }
  const key = filterKey(filter)
  const known = cache.byFilter.get(key)
  if (known !== undefined) return known
  const statement = countStatement(db, c)
  const total = statement ? (pluck<number>(db, statement) ?? 0) : 0
  if (cache.byFilter.size >= 64) cache.byFilter.delete(cache.byFilter.keys().next().value as string)
  cache.byFilter.set(key, total)
  return total
}

export function countAnnotations(db: Db, filter: AnnotationFilter): number {
  return countResolved(db, filter, resolveFilter(db, filter))
}

function sortJoin(def: SortDef): SqlFragment {
  if (def.join === 'sentence') {
    return sql.raw(' LEFT JOIN sentences se ON se.story_id = a.story_id AND se.idx = a.sentence_index')
  }
  if (def.join === 'texts') return sql.raw(' CROSS JOIN annotation_texts t ON t.annotation_id = a.id')
  return sql.empty
}

/** The outer ORDER BY over a union of branches, by the k0…kn aliases. */
function outerOrder(def: SortDef, direction: SortSpec['direction']): SqlFragment {
  const dir = direction === 'desc' ? ' DESC' : ''
  const terms = def.keys.map((key, i) => {
    const collate = / COLLATE \w+$/.exec(key.expr)?.[0] ?? ''
    return `k${i}${collate}${dir}`
  })
  return sql.raw([...terms, `id${dir}`].join(', '))
}

/** The statement for one page of ids and sort keys; `segment` narrows to rows after a cursor. */
export function pageStatement(
  plan: Plan,
  def: SortDef,
  direction: SortSpec['direction'],
  segment: SqlFragment | null,
  limit: number,
  offset: number,
): SqlFragment {
  const select = sql`SELECT a.id AS id${keyColumns(def)} FROM ${plan.from}${sortJoin(def)}`
  const branches = plan.branches.map((b) => (segment ? sql`${b} AND ${segment}` : b))
  if (branches.length === 1) {
    return sql`${select} WHERE ${branches[0] as SqlFragment} ORDER BY ${orderBy(def, direction)} LIMIT ${limit} OFFSET ${offset}`
  }
  const union = sql.join(
    branches.map((b) => sql`${select} WHERE ${b}`),
    ' UNION ALL ',
  )
  return sql`SELECT * FROM (${union}) ORDER BY ${outerOrder(def, direction)} LIMIT ${limit} OFFSET ${offset}`
}

/** How a page of `c` sorted by `def` is read, given the exact total. */
export function pagePlan(db: Db, c: Constraints, def: SortDef, total: number): Plan {
  const small = total <= WALK_ABOVE || c.annotationIds || c.submissionIds || c.stories
  return def.index === null || small ? drivingPlan(db, c) : walkPlan(db, c, def.index)
}

export function queryAnnotations(db: Db, request: PageRequest): ReviewPage {
  const sort = request.sort ?? DEFAULT_SORT
  const c = resolveFilter(db, request.filter)
  const total = countResolved(db, request.filter, c)
  const def = sortDef(sort.column)
  if (def.index === null && total > UNINDEXED_SORT_LIMIT) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'sort-too-large',
      message: `Sorting by ${sort.column} works on up to ${UNINDEXED_SORT_LIMIT.toLocaleString('en')} rows; narrow the filter (this one selects ${total.toLocaleString('en')}).`,
      field: 'sort',
    })
  }
  if (total === 0) return { rows: [], total, next: null, highlight: c.highlight }
  const plan = pagePlan(db, c, def, total)
  const segments = request.after ? afterCursor(def, sort.direction, request.after) : [null]
  const keys: Array<Record<string, unknown>> = []
  for (const segment of segments) {
    const need = request.limit - keys.length
    if (need <= 0) break
    const offset = request.after ? 0 : (request.offset ?? 0)
    keys.push(...all<Record<string, unknown>>(db, pageStatement(plan, def, sort.direction, segment, need, offset)))
  }
  const rows = annotationRows(
    db,
    keys.map((k) => k.id as number),
  )
  const last = keys[keys.length - 1]
  const next = keys.length === request.limit && last ? cursorOf(def, last) : null
  return { rows, total, next, highlight: c.highlight }
}

/**
 * `SELECT a.id …` of every annotation the filter selects, for bulk actions that work set-wise
 * (`UPDATE … WHERE id IN (<this>)`). Null when the filter provably selects nothing.
 */
export function matchingAnnotationIds(db: Db, filter: AnnotationFilter): SqlFragment | null {
  const c = resolveFilter(db, filter)
  if (c.none) return null
  const plan = drivingPlan(db, c)
  return sql.join(
    plan.branches.map((b) => sql`SELECT a.id FROM ${plan.from} WHERE ${b}`),
    ' UNION ALL ',
  )
}

/** Every row of a query in pages of `pageSize`, for exports and the command line. */
export function* allPages(db: Db, filter: AnnotationFilter, sort: SortSpec, pageSize = 2000): Generator<ReviewPage> {
  let after: ReviewCursor | undefined
  for (;;) {
    const page = queryAnnotations(db, { filter, sort, limit: pageSize, ...(after ? { after } : {}) })
    yield page
    if (!page.next) return
    after = page.next
  }
}
