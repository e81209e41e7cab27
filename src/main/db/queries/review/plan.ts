import type { Db } from '../../connection'
import { get, pluck } from '../../connection'
import { dataVersion } from '../../dataVersion'
import { type SqlFragment, sql } from '../../sql'
import {
  ALL_CHECKS,
  type CheckName,
  type Constraints,
  type SentenceMatch,
  check,
  hasConstraints,
  inList,
} from './filter'
import { type IndexColumn, type IndexName, REVIEW_INDEXES } from './indexes'

/**
 * How one filter is read: which rows drive (an index range, the full-text index, the matching
 * sentences…) and what is tested on each. We choose, not SQLite: without statistics it scans
 * where a seek exists, and over a large project a wrong choice costs far more than the query.
 *
 * The rule: seek as deep into a covering index as the filter allows, filling a column the filter
 * leaves free with all its values when that lets a later column seek too, and test the rest from
 * the index. The index expected to read the fewest entries wins.
 */
export interface Plan {
  /** FROM clause with alias `a` for annotations. */
  from: SqlFragment
  /** Disjoint WHERE clauses whose rows together are the result (NULL needs its own seek). */
  branches: SqlFragment[]
  /** What drives, for tests and benchmarks. */
  driver: string
  /** The annotation id as the driver yields it (the full-text index streams its rowids in order). */
  idExpr?: string
  /** Share of all rows the driver reads, when known (matching sentences). */
  share?: number
}

/** Shares of GLUCOSE annotations by dimension (FORMATS.md §1.5): priors when choosing an index. */
const DIMENSION_SHARE = [0.181, 0.122, 0.101, 0.0966, 0.073, 0.164, 0.121, 0.0535, 0.042, 0.0457]
/** Beyond this many seeks a fill costs more than the scan it saves. */
const MAX_SEEKS = 4000
/**
 * Costs per row read, in index entries, as measured at a million annotations: testing a row
 * against a set read once (sentences matched, search hits) costs several entries, reading the
 * table row several times more (figures in docs/benchmarks.md).
 */
const SET_COST = 10
const LOOKUP_COST = 50

const CHECK_COLUMNS: Record<CheckName, readonly string[]> = {
  workers: ['worker_id'],
  stories: ['story_id'],
  dimensions: ['dimension'],
  ratings: ['rating'],
  dates: ['submitted_at'],
  flagged: ['flags'],
  sentence: ['story_id', 'sentence_index'],
  fts: [],
  annotationIds: [],
  submissionIds: ['submission_id'],
}

const CHECK_OF_COLUMN: Partial<Record<IndexColumn, CheckName>> = {
  worker_id: 'workers',
  dimension: 'dimensions',
  rating: 'ratings',
  submitted_at: 'dates',
  story_id: 'stories',
}

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

/** How many values the filter gives a column: one seek each. */
function valueCount(c: Constraints, column: IndexColumn): number {
  if (column === 'worker_id') return c.workers?.length ?? 1
  if (column === 'dimension') return c.dimensions?.length ?? 1
  if (column === 'story_id') return c.stories?.length ?? 1
  if (column === 'rating') return (c.ratings?.values.length ?? 0) + (c.ratings?.unrated ? 1 : 0)
  return 1
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
      const covered = Math.min(c.until ?? hi + 1, hi + 1) - Math.max(c.from ?? lo, lo)
      return Math.max(0, Math.min(1, covered / Math.max(hi + 1 - lo, 1)))
    }
    case 'story_id':
      return 0.0001
    default:
      return 1
  }
}

/** What the filter asks that a seek did not answer. */
function remainingChecks(c: Constraints, answered: ReadonlySet<CheckName>): CheckName[] {
  return ALL_CHECKS.filter((name) => !answered.has(name) && check(c, name) !== null)
}

function checkFragments(c: Constraints, names: readonly CheckName[]): SqlFragment[] {
  return names.map((name) => check(c, name)).filter((f): f is SqlFragment => f !== null)
}

/** Cost of one row read from `columns` (an index) with these tests, in index entries. */
function rowCost(columns: readonly string[], checks: readonly CheckName[]): number {
  const lookup = checks.some((name) => CHECK_COLUMNS[name].some((col) => !columns.includes(col)))
  const sets = checks.filter((name) => name === 'sentence' || name === 'fts').length
  return 1 + sets * SET_COST + (lookup ? LOOKUP_COST : 0)
}

interface Candidate {
  plan: Plan
  /** Expected cost: share of all annotations read times the cost per row. */
  estimate: number
  seeks: number
}

/**
 * How deep `index` can seek for `c`. `ordered` keeps the index order for a walk in sort order: no
 * fills of several alternatives (the filter's own are merged in order by the page).
 */
function seekInto(index: IndexName, c: Constraints, ctx: Context, ordered: boolean): Candidate {
  const names = REVIEW_INDEXES[index] as readonly IndexColumn[]
  const columns: SqlFragment[][] = []
  const answered = new Set<CheckName>()
  let estimate = 1
  let seeks = 1
  if (index === 'ann_flagged') {
    columns.push([sql.raw('a.flags > 0')]) // must appear as written for the partial index
    // A picked flag kind is still tested row by row.
    if (c.flagMask === undefined) answered.add('flagged')
    estimate = 0.01
  }
  for (let i = 0; i < names.length; i++) {
    const column = names[i] as IndexColumn
    const own = seekOf(c, column)
    const name = CHECK_OF_COLUMN[column]
    if (own === 'range') {
      columns.push([rangeOf(c)])
      answered.add('dates')
      estimate *= prior(c, column, ctx)
      break
    }
    if (own) {
      // Several alternatives (some ratings and the unrated) stay in order: each branch walks its
      // own seek and the page merges them (SQLite's MERGE of a UNION ALL under ORDER BY … LIMIT).
      columns.push(own)
      if (name) answered.add(name)
      estimate *= prior(c, column, ctx)
      seeks *= valueCount(c, column)
      continue
    }
    const later = names.slice(i + 1).some((n) => seekOf(c, n) !== null)
    const fill = later ? fillOf(column, ctx) : null
    if (!fill || (ordered && fill.alts.length > 1) || seeks * fill.seeks > MAX_SEEKS) break
    columns.push(fill.alts)
    seeks *= fill.seeks
  }
  const rest = remainingChecks(c, answered)
  const fixed = checkFragments(c, rest)
  const branches = product(columns).map((alts) => where([...alts, ...fixed]))
  return {
    plan: { from: sql.raw(`annotations a INDEXED BY ${index}`), branches, driver: index },
    estimate: estimate * rowCost(names, rest),
    seeks,
  }
}

function product(lists: SqlFragment[][]): SqlFragment[][] {
  return lists.reduce<SqlFragment[][]>(
    (acc, alts) => acc.flatMap((prefix) => alts.map((alt) => [...prefix, alt])),
    [[]],
  )
}

function where(parts: SqlFragment[]): SqlFragment {
  return parts.length > 0 ? sql.join(parts, ' AND ') : sql.raw('1')
}

/** A plan driven by a list or a search, with every other field tested on its rows. */
function drivenBy(
  c: Constraints,
  from: string | SqlFragment,
  driver: string,
  seek: SqlFragment,
  answered: CheckName,
): Plan {
  const rest = remainingChecks(c, new Set([answered]))
  const source = typeof from === 'string' ? sql.raw(from) : from
  return { from: source, branches: [where([seek, ...checkFragments(c, rest)])], driver }
}

const BY_SENTENCE_TRIGRAM =
  'sentence_search CROSS JOIN annotations a INDEXED BY ann_story ON a.story_id = sentence_search.rowid >> 8 AND a.sentence_index = (sentence_search.rowid & 255)'
const BY_SENTENCE_LIKE =
  'sentences s CROSS JOIN annotations a INDEXED BY ann_story ON a.story_id = s.story_id AND a.sentence_index = s.idx'

function sentencePlan(c: Constraints): Plan {
  const m = c.sentence
  if (!m) throw new Error('sentencePlan without a sentence filter')
  return m.trigram !== null
    ? drivenBy(
        c,
        BY_SENTENCE_TRIGRAM,
        'sentence',
        sql`sentence_search MATCH ${m.trigram}`,
        'sentence',
      )
    : drivenBy(c, BY_SENTENCE_LIKE, 'sentence', sql`s.text LIKE ${m.like} ESCAPE '\\'`, 'sentence')
}

// The sentences a filter's match finds, counted once per filter (its estimate is asked for twice).
const matchedSentences = new WeakMap<SentenceMatch, number>()
// The project's count of sentences, while no connection has written (a read of every sentence).
const sentenceCounts = new WeakMap<Db, { version: string; count: number }>()

function sentenceCount(db: Db): number {
  const version = dataVersion(db)
  const known = sentenceCounts.get(db)
  if (known?.version === version) return known.count
  const count = pluck<number>(db, sql`SELECT count(*) FROM sentences`) ?? 0
  sentenceCounts.set(db, { version, count })
  return count
}

/** Share of sentences the sentence filter matches (one trigram lookup, or a LIKE scan). */
export function sentenceShare(db: Db, c: Constraints): number {
  const m = c.sentence
  if (!m) return 1
  let matched = matchedSentences.get(m)
  if (matched === undefined) {
    matched =
      (m.trigram
        ? pluck<number>(
            db,
            sql`SELECT count(*) FROM sentence_search WHERE sentence_search MATCH ${m.trigram}`,
          )
        : pluck<number>(
            db,
            sql`SELECT count(*) FROM sentences WHERE text LIKE ${m.like} ESCAPE '\\'`,
          )) ?? 0
    matchedSentences.set(m, matched)
  }
  const all = sentenceCount(db)
  return all === 0 ? 0 : matched / all
}

/**
 * Whether the annotation of id `rowid` is of one of `dimensions`, from the id alone: an id is its
 * submission's × 16 + its dimension (a CHECK of the schema), and the dimensions are bits of one
 * integer, so a full-text hit is tested without being joined to its annotation.
 */
export function rowidInDimensions(rowid: string, dimensions: readonly number[]): SqlFragment {
  const mask = dimensions.reduce((m, d) => (d > 0 && d < 16 ? m | (1 << d) : m), 0)
  return sql`(${mask} >> (${sql.raw(rowid)} & 15)) & 1 = 1`
}

const FTS_FROM = 'annotation_search CROSS JOIN annotations a ON a.id = annotation_search.rowid'

/**
 * The plan that reads the fewest rows for `c`: explicit ids, stories or the full-text index when
 * the filter has them (few rows, or no cheaper way: reading every hit into a set costs more than
 * joining them), else the cheapest of the covering indexes and the matching sentences.
 */
export function drivingPlan(db: Db, c: Constraints): Plan {
  if (!hasConstraints(c))
    return { from: sql.raw('annotations a'), branches: [sql.raw('1')], driver: 'all' }
  if (c.annotationIds) {
    return drivenBy(
      c,
      'annotations a',
      'ids',
      sql`a.id IN ${inList(c.annotationIds)}`,
      'annotationIds',
    )
  }
  if (c.submissionIds) {
    // A submission's annotations are the ids submission × 16 + dimension (a CHECK of the schema).
    const from = sql`json_each(${JSON.stringify(c.submissionIds)}) AS sub CROSS JOIN annotations a
      ON a.id BETWEEN sub.value * 16 AND sub.value * 16 + 15`
    return drivenBy(c, from, 'submissions', sql.raw('1'), 'submissionIds')
  }
  if (c.stories) {
    const seek = sql`a.story_id IN ${inList(c.stories)}`
    // A story holds few annotations: probing each one's text costs less than reading every hit.
    const probed = c.fts !== undefined ? { ...c, ftsProbe: true } : c
    return drivenBy(probed, 'annotations a INDEXED BY ann_story', 'stories', seek, 'stories')
  }
  if (c.fts !== undefined) {
    const match = sql`annotation_search MATCH ${c.fts}`
    // A hit of another dimension is passed over before it is joined to its annotation.
    const seek = c.dimensions
      ? sql`${match} AND ${rowidInDimensions('annotation_search.rowid', c.dimensions)}`
      : match
    const plan = drivenBy(c, FTS_FROM, 'fts', seek, 'fts')
    return { ...plan, idExpr: 'annotation_search.rowid' }
  }
  const onlySentence = c.sentence !== undefined && !hasConstraints({ ...c, sentence: undefined })
  if (onlySentence) return sentencePlan(c)
  const ctx = context(db)
  const indexes: IndexName[] = ['ann_worker', 'ann_rating', 'ann_dimension', 'ann_date']
  if (c.flagged) indexes.unshift('ann_flagged')
  const candidates = indexes.map((index) => seekInto(index, c, ctx, false))
  if (c.sentence !== undefined) {
    const rest = remainingChecks(c, new Set<CheckName>(['sentence']))
    const share = sentenceShare(db, c)
    const estimate = share * rowCost(REVIEW_INDEXES.ann_story, rest)
    candidates.push({ plan: { ...sentencePlan(c), share }, estimate, seeks: 1 })
  }
  candidates.sort((x, y) => x.estimate - y.estimate || x.seeks - y.seeks)
  return (candidates[0] as Candidate).plan
}

/**
 * A walk of `index` in its order that stops after a page: seeks only where the order survives and
 * tests the rest per row. Only for filters without sentence or text (their sets cost a full read).
 */
export function walkPlan(db: Db, c: Constraints, index: IndexName | 'table'): Plan {
  if (index === 'table') {
    const rest = remainingChecks(c, new Set())
    return {
      from: sql.raw('annotations a'),
      branches: [where(checkFragments(c, rest))],
      driver: 'table',
    }
  }
  return seekInto(index, c, context(db), true).plan
}

/**
 * A plan over a past view of annotations (`annotationsAsOf`): no index to seek, every field
 * tested per row. Slower than the live plans; only for looking at ratings as they stood.
 */
export function asOfPlan(relation: SqlFragment, c: Constraints): Plan {
  return {
    from: sql`${relation} AS a`,
    branches: [where(checkFragments(c, remainingChecks(c, new Set())))],
    driver: 'as-of',
  }
}
