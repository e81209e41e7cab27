import { UserError } from '../../../../shared/contract/errors'
import type { ReviewCursor, ReviewPage } from '../../../../shared/contract/review'
import {
  type AnnotationFilter,
  type SortSpec,
  DEFAULT_SORT,
  UNINDEXED_SORT_LIMIT,
} from '../../../../shared/filter'
import type { Db } from '../../connection'
import { all, pluck } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { annotationRows, annotationRowsStatement } from '../annotations'
import { constraintsOf, countPast, countResolved, knownTotal, rememberTotal } from './count'
import { countable, countFromSummary } from '../annotationCounts'
import { type Constraints, hasConstraints } from './filter'
import { type Plan, asOfPlan, drivingPlan, sentenceShare, walkPlan } from './plan'
import { type SortDef, afterCursor, cursorOf, keyColumns, orderBy, sortDef } from './sort'
import { append } from '../../../../shared/lists'

export { countAnnotations, countStatement, forgetTotals } from './count'

/**
 * Up to `walkAbove` rows a page is cut from the whole (sorted) result; above it the sort's index
 * is walked and the filter tested until the page is full, which stays short because matches are
 * dense. Tests lower it to walk small projects.
 */
export const reviewTuning = { walkAbove: 50_000 }

/** A page request over the filter vocabulary of src/shared/filter.ts. */
export interface PageRequest {
  filter: AnnotationFilter
  sort?: SortSpec
  limit: number
  after?: ReviewCursor
  offset?: number
  /**
   * Ratings (shown and filtered) as they stood at a moment: a past view from ratingsAsOf.ts;
   * absent or null for the present.
   */
  past?: SqlFragment | null
  /**
   * Rows first: when the exact total is not known at once (text, sentence and story filters), the
   * page comes without it (`counting`), and the total is counted apart (`review.gridCount`).
   */
  countLater?: boolean
}

function sortJoin(def: SortDef): SqlFragment {
  if (def.join === 'sentence') {
    return sql.raw(
      ' LEFT JOIN sentences se ON se.story_id = a.story_id AND se.idx = a.sentence_index',
    )
  }
  if (def.join === 'texts')
    return sql.raw(' CROSS JOIN annotation_texts t ON t.annotation_id = a.id')
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
    const order = orderBy(def, direction, plan.idExpr)
    return sql`${select} WHERE ${branches[0] as SqlFragment} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
  }
  const union = sql.join(
    branches.map((b) => sql`${select} WHERE ${b}`),
    ' UNION ALL ',
  )
  return sql`SELECT * FROM (${union}) ORDER BY ${outerOrder(def, direction)} LIMIT ${limit} OFFSET ${offset}`
}

/**
 * How a page of `c` sorted by `def` is read, given the exact total. A small result is read whole
 * and sorted; a large one walks the sort's index and stops after the page (matches are dense).
 * Text filters always drive: the set of hits a walk would test against costs a read of them all.
 */
export function pagePlan(db: Db, c: Constraints, def: SortDef, total: number): Plan {
  const driven = c.annotationIds || c.submissionIds || c.stories || c.fts !== undefined
  if (def.index === null || total <= reviewTuning.walkAbove || driven) return drivingPlan(db, c)
  return walkPlan(db, c, def.index)
}

/**
 * How a page is read before its total is known: as `pagePlan` would for the total the filter is
 * estimated to select (a sentence filter's share of sentences; text, stories and ids drive).
 */
function uncountedPlan(db: Db, c: Constraints, def: SortDef, limit: number): Plan {
  // Stories and ids select few rows: they drive, whatever the word's share.
  const driven = c.annotationIds || c.submissionIds || c.stories
  if (c.fts !== undefined && !driven && def.index !== null && def.index !== 'table') {
    if (denseText(db, c, limit)) return walkPlan(db, { ...c, ftsProbe: true }, def.index)
  }
  if (c.sentence === undefined) return drivingPlan(db, c)
  // A sentence filter is read as for the total its share of sentences suggests.
  const estimate = sentenceShare(db, c) * countFromSummary(db, { none: false, highlight: [] })
  return pagePlan(db, c, def, Math.round(estimate))
}

/** Annotation ids in the sample a word's share is estimated from (about 4,000 submissions). */
const SAMPLE_IDS = 65_536
/** CPU per row, µs: a walk probing the full-text index, and reading a hit into a set. */
const PROBE_COST = 6
const HIT_COST = 0.16

/**
 * Whether a text filter's first page is cheaper found by walking the sort's index and probing
 * each row's text than by reading every hit and sorting them: its share of the annotations is
 * sampled (the hits in an id range, the full-text index seeks rowid ranges), the other fields'
 * share comes from the summary. A walk reads about limit / (both shares) rows.
 */
function denseText(db: Db, c: Constraints, limit: number): boolean {
  const all = countFromSummary(db, { none: false, highlight: [] })
  if (all === 0) return false
  const top = pluck<number>(db, sql`SELECT max(id) FROM annotations`) ?? 0
  // Integers bound as such: a bound number is a REAL, and the full-text index seeks only integers.
  const lo = BigInt(Math.max(0, Math.floor(top / 2) - SAMPLE_IDS / 2))
  const hi = lo + BigInt(SAMPLE_IDS)
  const rows =
    pluck<number>(db, sql`SELECT count(*) FROM annotations WHERE id BETWEEN ${lo} AND ${hi}`) ?? 0
  if (rows === 0) return false
  const hits =
    pluck<number>(
      db,
      sql`SELECT count(*) FROM annotation_search
          WHERE annotation_search MATCH ${c.fts ?? ''} AND rowid BETWEEN ${lo} AND ${hi}`,
    ) ?? 0
  const textShare = hits / rows
  const rest: Constraints = { ...c, fts: undefined }
  const otherShare = countable(rest) ? countFromSummary(db, rest) / all : 1
  const walked = limit / Math.max(textShare * otherShare, 1e-9)
  return walked * PROBE_COST < textShare * all * HIT_COST
}

function refuseLargeUnindexedSort(def: SortDef, column: string, total: number): void {
  if (def.index !== null || total <= UNINDEXED_SORT_LIMIT) return
  throw new UserError({
    type: 'invalid-argument',
    code: 'sort-too-large',
    message: `Sorting by ${column} works on up to ${UNINDEXED_SORT_LIMIT.toLocaleString('en')} rows; narrow the filter (this one selects ${total.toLocaleString('en')}).`,
    field: 'sort',
  })
}

/**
 * The first page and the total of a search joined with other filters, in one read of the hits:
 * counting and then sorting them would join every hit twice.
 */
function searchPageStatement(
  plan: Plan,
  def: SortDef,
  direction: SortSpec['direction'],
  limit: number,
): SqlFragment {
  const select = sql`SELECT a.id AS id${keyColumns(def)} FROM ${plan.from}${sortJoin(def)} WHERE ${plan.branches[0] as SqlFragment}`
  return sql`WITH m AS MATERIALIZED (${select})
    SELECT *, (SELECT count(*) FROM m) AS total FROM m ORDER BY ${outerOrder(def, direction)} LIMIT ${limit}`
}

/** Above this share of sentences, keeping the matches costs more than reading them twice. */
const ONE_READ_SENTENCE_SHARE = 0.2

/**
 * Whether the first page and the total come from one read of the hits: searches (text, or
 * sentences matching few enough) narrowed further by other filters. A text search sorted by id
 * streams its first page instead.
 */
function oneRead(c: Constraints, plan: Plan, def: SortDef): boolean {
  if (plan.branches.length !== 1) return false
  if (plan.driver === 'fts')
    return def.index !== 'table' && hasConstraints({ ...c, fts: undefined })
  if (plan.driver === 'sentence') {
    const narrowed = hasConstraints({ ...c, sentence: undefined })
    return narrowed && (plan.share ?? 1) <= ONE_READ_SENTENCE_SHARE
  }
  return false
}

/** Statements a query ran, in order (the benchmark replays them in the sqlite3 shell). */
export type Trace = SqlFragment[]

function run(db: Db, statement: SqlFragment, trace?: Trace): Array<Record<string, unknown>> {
  trace?.push(statement)
  return all<Record<string, unknown>>(db, statement)
}

function readKeys(
  db: Db,
  request: PageRequest,
  c: Constraints,
  def: SortDef,
  sort: SortSpec,
  past: SqlFragment | null,
  trace?: Trace,
): { keys: Array<Record<string, unknown>>; total: number | null } {
  if (past) {
    // A past view: no index plans (its ratings are not indexed), the whole result sorted.
    const total = countPast(db, past, c, trace)
    refuseLargeUnindexedSort(def, sort.column, total)
    return {
      keys: total === 0 ? [] : readPages(db, request, asOfPlan(past, c), def, sort, trace),
      total,
    }
  }
  let total = knownTotal(db, request.filter)
  if (total === undefined && countable(c)) total = countResolved(db, request.filter, c, trace)
  if (total === undefined && request.countLater && !c.none && def.index !== null) {
    return {
      keys: readPages(db, request, uncountedPlan(db, c, def, request.limit), def, sort, trace),
      total: null,
    }
  }
  const first = !request.after && !request.offset
  if (total === undefined && first && !c.none && (c.fts !== undefined || c.sentence)) {
    const plan = drivingPlan(db, c)
    if (oneRead(c, plan, def)) {
      const keys = run(db, searchPageStatement(plan, def, sort.direction, request.limit), trace)
      total = (keys[0]?.total as number | undefined) ?? 0
      rememberTotal(db, request.filter, total)
      refuseLargeUnindexedSort(def, sort.column, total)
      return { keys, total }
    }
  }
  total ??= countResolved(db, request.filter, c, trace)
  refuseLargeUnindexedSort(def, sort.column, total)
  if (total === 0) return { keys: [], total }
  return { keys: readPages(db, request, pagePlan(db, c, def, total), def, sort, trace), total }
}

/** The ids and sort keys of the requested page, read with `plan`. */
function readPages(
  db: Db,
  request: PageRequest,
  plan: Plan,
  def: SortDef,
  sort: SortSpec,
  trace?: Trace,
): Array<Record<string, unknown>> {
  const keys: Array<Record<string, unknown>> = []
  const segments = request.after
    ? afterCursor(def, sort.direction, request.after, plan.idExpr)
    : [null]
  for (const segment of segments) {
    const need = request.limit - keys.length
    if (need <= 0) break
    const offset = request.after ? 0 : (request.offset ?? 0)
    append(keys, run(db, pageStatement(plan, def, sort.direction, segment, need, offset), trace))
  }
  return keys
}

/**
 * One page of the grid and the exact total; `trace` collects the statements it ran. With `asOf`
 * the ratings shown and filtered on are those that stood then.
 */
export function queryAnnotations(db: Db, request: PageRequest, trace?: Trace): ReviewPage {
  const { ids, total, next, highlight, past } = readIds(db, request, trace)
  const relation = past ?? undefined
  if (ids.length > 0) trace?.push(annotationRowsStatement(ids, relation))
  const rows = annotationRows(db, ids, relation)
  if (total !== null) return { rows, total, next, highlight }
  // Uncounted: a short first page is the whole result; else the total is at least what is known.
  const seen = (request.offset ?? 0) + ids.length
  if (next === null && !request.after) return { rows, total: seen, next, highlight }
  return { rows, total: seen, next, highlight, counting: true }
}

function readIds(db: Db, request: PageRequest, trace?: Trace) {
  const sort = request.sort ?? DEFAULT_SORT
  const c = constraintsOf(db, request.filter)
  const def = sortDef(sort.column)
  const past = request.past ?? null
  const { keys, total } = readKeys(db, request, c, def, sort, past, trace)
  const last = keys[keys.length - 1]
  const next = keys.length === request.limit && last ? cursorOf(def, last) : null
  return { ids: keys.map((k) => k.id as number), total, next, highlight: c.highlight, past }
}

/**
 * Every annotation id of a query in its order, streamed from `reader` (a second connection on the
 * same file, so this one stays free for requests while the ids are read). The plan is made here.
 */
export function orderedIds(
  db: Db,
  reader: Db,
  filter: AnnotationFilter,
  sort: SortSpec,
  total: number,
): IterableIterator<number> {
  const c = constraintsOf(db, filter)
  const def = sortDef(sort.column)
  refuseLargeUnindexedSort(def, sort.column, total)
  const statement = pageStatement(pagePlan(db, c, def, total), def, sort.direction, null, total, 0)
  return reader
    .prepare(statement.text)
    .pluck()
    .iterate(...statement.values) as IterableIterator<number>
}

/**
 * A page of the present's rows for ids already known to be the query's rows at some positions, in
 * that order (the grid's order cache), with the same total, cursor and highlight as a read.
 */
export function pageOfIds(
  db: Db,
  filter: AnnotationFilter,
  sort: SortSpec,
  ids: readonly number[],
  limit: number,
  total: number,
): ReviewPage {
  const def = sortDef(sort.column)
  const rows = annotationRows(db, ids)
  const lastId = ids[ids.length - 1]
  let next: ReviewCursor | null = null
  if (ids.length === limit && lastId !== undefined) {
    const last = run(
      db,
      sql`SELECT a.id AS id${keyColumns(def)} FROM annotations a${sortJoin(def)} WHERE a.id = ${lastId}`,
    )[0]
    if (last) next = cursorOf(def, last)
  }
  return { rows, total, next, highlight: constraintsOf(db, filter).highlight }
}

/**
 * `SELECT a.id …` of every annotation the filter selects, for bulk actions that work set-wise
 * (`UPDATE … WHERE id IN (<this>)`). Null when the filter provably selects nothing.
 */
export function matchingAnnotationIds(db: Db, filter: AnnotationFilter): SqlFragment | null {
  const c = constraintsOf(db, filter)
  if (c.none) return null
  const plan = drivingPlan(db, c)
  return sql.join(
    plan.branches.map((b) => sql`SELECT a.id FROM ${plan.from} WHERE ${b}`),
    ' UNION ALL ',
  )
}

/** Every row of a query in pages of `pageSize`, for exports and the command line. */
export function* allPages(
  db: Db,
  filter: AnnotationFilter,
  sort: SortSpec,
  pageSize = 2000,
): Generator<ReviewPage> {
  let after: ReviewCursor | undefined
  for (;;) {
    const page = queryAnnotations(db, {
      filter,
      sort,
      limit: pageSize,
      ...(after ? { after } : {}),
    })
    yield page
    if (!page.next) return
    after = page.next
  }
}
