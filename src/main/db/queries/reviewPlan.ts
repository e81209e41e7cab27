import type { Db } from '../connection'
import { get } from '../connection'
import { type SqlFragment, sql } from '../sql'
import { ALL_CHECKS, type CheckName, type Constraints, check, hasConstraints, inList } from './reviewFilter'
import { type IndexColumn, type IndexName, REVIEW_INDEXES } from './reviewIndexes'

/**
 * How one filter is read: which rows drive (an index range, the full-text index, the matching
 * sentences…), and what is tested on each. We choose instead of SQLite because its choice without
 * statistics scans where a seek exists, and a wrong choice over a million rows costs 100 ms+.
 *
 * The rule: seek as deep into a covering index as the filter allows, filling an unfiltered column
 * with all its values when that lets a later column seek too, and test the rest from the index.
 */
export interface Plan {
  /** FROM clause with alias `a` for annotations. */
  from: SqlFragment
  /** Disjoint WHERE clauses whose rows together are the result (NULL needs its own seek). */
  branches: SqlFragment[]
  /** What drives, for tests and benchmarks. */
  driver: string
  /** Rows come out in this index's order (a walk). */
  ordered?: IndexName | 'table'
}

/** Shares of GLUCOSE annotations by dimension (FORMATS.md §1.5): priors when choosing an index. */
const DIMENSION_SHARE = [0.181, 0.122, 0.101, 0.0966, 0.073, 0.164, 0.121, 0.0535, 0.042, 0.0457]
/** Beyond this many seeks a fill costs more than the scan it saves. */
const MAX_SEEKS = 4000

interface Context {
  workers: number
  firstSubmitted: number | null
  lastSubmitted: number | null
}

function context(db: Db): Context {
  const row = get<{ w: number; lo: number | null; hi: number | null }>(
    db,
    sql`SELECT (SELECT count(*) FROM workers) AS w,
          (SELECT min(submitted_at) FROM annotations) AS lo,
          (SELECT max(submitted_at) FROM annotations) AS hi`,
  )
  return { workers: row?.w ?? 0, firstSubmitted: row?.lo ?? null, lastSubmitted: row?.hi ?? null }
}

/** Equality alternatives (or one range) that seek `column`; null when the filter leaves it free. */
function seekOf(c: Constraints, column: IndexColumn): SqlFragment[] | 'range' | null {
  switch (column) {
    case 'worker_id':
      return c.workers ? [sql`a.worker_id IN ${inList(c.workers)}`] : null
    case 'dimension':
      return c.dimensions ? [sql`a.dimension IN ${inList(c.dimensions)}`] : null
    case 'story_id':
      return c.stories ? [sql`a.story_id IN ${inList(c.stories)}`] : null
    case 'rating': {
      if (!c.ratings) return null
      const alts: SqlFragment[] = []
      if (c.ratings.values.length > 0) alts.push(sql`a.rating IN ${inList(c.ratings.values)}`)
      if (c.ratings.unrated) alts.push(sql`a.rating IS NULL`)
      return alts
    }
    case 'submitted_at':
      return c.from !== undefined || c.until !== undefined ? 'range' : null
    default:
      return null
  }
}

function rangeOf(c: Constraints): SqlFragment {
  const parts: SqlFragment[] = []
  if (c.from !== undefined) parts.push(sql`a.submitted_at >= ${c.from}`)
  if (c.until !== undefined) parts.push(sql`a.submitted_at < ${c.until}`)
  return sql.join(parts, ' AND ')
}

/** Every value of a column the filter leaves free, so the columns after it can seek. */
function fillOf(column: IndexColumn, ctx: Context): { alts: SqlFragment[]; seeks: number } | null {
  switch (column) {
    case 'dimension':
      return { alts: [sql.raw('a.dimension IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)')], seeks: 10 }
    case 'worker_id':
      return {
        alts: [sql.raw('a.worker_id IN (SELECT id FROM workers)'), sql.raw('a.worker_id IS NULL')],
        seeks: ctx.workers + 1,
      }
    case 'rating':
      // The distinct ratings, each found by one seek of ann_rating (a skip scan by hand).
      return {
        alts: [
          sql.raw(`a.rating IN (WITH RECURSIVE r(v) AS (SELECT min(rating) FROM annotations
            UNION ALL SELECT (SELECT min(rating) FROM annotations WHERE rating > r.v) FROM r
            WHERE r.v IS NOT NULL) SELECT v FROM r WHERE v IS NOT NULL)`),
          sql.raw('a.rating IS NULL'),
        ],
        seeks: 10,
      }
    default:
      return null
  }
}

const CHECK_OF_COLUMN: Partial<Record<IndexColumn, CheckName>> = {
  worker_id: 'workers',
  dimension: 'dimensions',
  rating: 'ratings',
  submitted_at: 'dates',
  story_id: 'stories',
}

function prior(c: Constraints, column: IndexColumn, ctx: Context): number {
  switch (column) {
    case 'worker_id':
      return Math.min(1, (c.workers?.length ?? 0) * 0.03)
    case 'dimension':
      return (c.dimensions ?? []).reduce((sum, d) => sum + (DIMENSION_SHARE[d - 1] ?? 0.1), 0)
    case 'rating':
      return Math.min(1, (c.ratings?.values.length ?? 0) * 0.25 + (c.ratings?.unrated ? 0.1 : 0))
    case 'submitted_at': {
      const lo = ctx.firstSubmitted
      const hi = ctx.lastSubmitted
      if (lo === null || hi === null) return 1
      const span = Math.max(hi + 1 - lo, 1)
      const covered = Math.min(c.until ?? hi + 1, hi + 1) - Math.max(c.from ?? lo, lo)
      return Math.max(0, Math.min(1, covered / span))
    }
    case 'story_id':
      return 0.0001
    default:
      return 1
  }
}

/** How many values the filter gives a column: one seek each. */
function valueCount(c: Constraints, column: IndexColumn): number {
  if (column === 'worker_id') return c.workers?.length ?? 1
  if (column === 'dimension') return c.dimensions?.length ?? 1
  if (column === 'story_id') return c.stories?.length ?? 1
  if (column === 'rating') return (c.ratings?.values.length ?? 0) + (c.ratings?.unrated ? 1 : 0)
  return 1
}

interface Seek {
  index: IndexName
  /** Per seeked column, its alternatives; the branches are their product. */
  columns: Array<{ column: IndexColumn; alts: SqlFragment[] }>
  estimate: number
  seeks: number
}

/**
 * How deep `index` can seek for `c`. `ordered` keeps the index order (one branch, no NULL
 * fills), as a walk in sort order needs.
 */
function seekInto(index: IndexName, c: Constraints, ctx: Context, ordered: boolean): Seek {
  const names = REVIEW_INDEXES[index] as readonly IndexColumn[]
  const seek: Seek = { index, columns: [], estimate: index === 'ann_flagged' ? 0.01 : 1, seeks: 1 }
  for (let i = 0; i < names.length; i++) {
    const column = names[i] as IndexColumn
    const own = seekOf(c, column)
    if (own === 'range') {
      seek.columns.push({ column, alts: [rangeOf(c)] })
      seek.estimate *= prior(c, column, ctx)
      break
    }
    if (own) {
      if (ordered && own.length > 1) break
      seek.columns.push({ column, alts: own })
      seek.estimate *= prior(c, column, ctx)
      seek.seeks *= valueCount(c, column)
      continue
    }
    const later = names.slice(i + 1).some((n) => seekOf(c, n) !== null)
    const fill = later ? fillOf(column, ctx) : null
    if (!fill || (ordered && fill.alts.length > 1) || seek.seeks * fill.seeks > MAX_SEEKS) break
    seek.columns.push({ column, alts: fill.alts })
    seek.seeks *= fill.seeks
  }
  return seek
}

function product(lists: SqlFragment[][]): SqlFragment[][] {
  return lists.reduce<SqlFragment[][]>(
    (acc, alts) => acc.flatMap((prefix) => alts.map((alt) => [...prefix, alt])),
    [[]],
  )
}

function checksExcept(c: Constraints, skip: ReadonlySet<CheckName>, probe: boolean): SqlFragment[] {
  return ALL_CHECKS.filter((name) => !skip.has(name))
    .map((name) => check(c, name, probe))
    .filter((f): f is SqlFragment => f !== null)
}

function fromSeek(seek: Seek, c: Constraints, probe: boolean): Plan {
  const used = new Set<CheckName>()
  for (const { column } of seek.columns) {
    const name = CHECK_OF_COLUMN[column]
    // A filled column was not filtered; its own check (if any) is still needed.
    if (name && seekOf(c, column) !== null) used.add(name)
  }
  const fixed: SqlFragment[] = []
  if (seek.index === 'ann_flagged') {
    fixed.push(sql.raw('a.flags > 0'))
    used.add('flagged')
  }
  const checks = checksExcept(c, used, probe)
  const branches = product(seek.columns.map((col) => col.alts)).map((alts) =>
    sql.join([...fixed, ...alts, ...checks], ' AND '),
  )
  return {
    from: sql.raw(`annotations a INDEXED BY ${seek.index}`),
    branches: branches.length > 0 ? branches : [sql.raw('1')],
    driver: seek.index,
  }
}

function where(parts: SqlFragment[]): SqlFragment {
  return parts.length > 0 ? sql.join(parts, ' AND ') : sql.raw('1')
}

/**
 * The plan that reads the fewest rows for `c`: explicit ids, a story, the full-text index or the
 * matching sentences when the filter has them, else the covering index with the best seek.
 */
export function drivingPlan(db: Db, c: Constraints): Plan {
  if (!hasConstraints(c)) return { from: sql.raw('annotations a'), branches: [sql.raw('1')], driver: 'all' }
  const skip = (...names: CheckName[]) => new Set<CheckName>(names)
  if (c.annotationIds) {
    return {
      from: sql.raw('annotations a'),
      branches: [where([sql`a.id IN ${inList(c.annotationIds)}`, ...checksExcept(c, skip('annotationIds'), true)])],
      driver: 'ids',
    }
  }
  if (c.submissionIds) {
    return {
      from: sql.raw('annotations a'),
      branches: [
        where([sql`a.submission_id IN ${inList(c.submissionIds)}`, ...checksExcept(c, skip('submissionIds'), true)]),
      ],
      driver: 'submissions',
    }
  }
  if (c.stories) {
    return {
      from: sql.raw('annotations a INDEXED BY ann_story'),
      branches: [where([sql`a.story_id IN ${inList(c.stories)}`, ...checksExcept(c, skip('stories'), true)])],
      driver: 'stories',
    }
  }
  if (c.fts !== undefined) {
    return {
      from: sql.raw('annotation_search CROSS JOIN annotations a ON a.id = annotation_search.rowid'),
      branches: [where([sql`annotation_search MATCH ${c.fts}`, ...checksExcept(c, skip('fts'), false)])],
      driver: 'fts',
    }
  }
  if (c.sentence !== undefined) {
    return {
      from: sql.raw(
        'sentences s CROSS JOIN annotations a INDEXED BY ann_story ON a.story_id = s.story_id AND a.sentence_index = s.idx',
      ),
      branches: [where([sql`s.text LIKE ${c.sentence} ESCAPE '\\'`, ...checksExcept(c, skip('sentence'), false)])],
      driver: 'sentence',
    }
  }
  const ctx = context(db)
  const candidates: IndexName[] = c.flagged
    ? ['ann_flagged', 'ann_worker', 'ann_rating', 'ann_dimension', 'ann_date']
    : ['ann_worker', 'ann_rating', 'ann_dimension', 'ann_date']
  const seeks = candidates.map((index) => seekInto(index, c, ctx, false))
  seeks.sort((x, y) => x.estimate - y.estimate || x.seeks - y.seeks)
  return fromSeek(seeks[0] as Seek, c, false)
}

/**
 * A walk of `index` in its order that stops after a page: seeks only where the order survives,
 * and tests everything else per row (sentence and text by probing, not by reading every match).
 */
export function walkPlan(db: Db, c: Constraints, index: IndexName | 'table'): Plan {
  if (index === 'table') {
    return { from: sql.raw('annotations a'), branches: [where(checksExcept(c, new Set(), true))], driver: 'table', ordered: 'table' }
  }
  const seek = seekInto(index, c, context(db), true)
  return { ...fromSeek(seek, c, true), ordered: index }
}
