import type { AnnotationFilter } from '../../../../shared/filter'
import { dataVersion } from '../../dataVersion'
import { filterKey } from '../../../../shared/filter'
import { ensureSearchIndexed } from '../../../search/indexer'
import type { Db } from '../../connection'
import { pluck } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { countable, summaryCountStatement } from '../annotationCounts'
import { type Constraints, hasConstraints, resolveFilter } from './filter'
import { type Plan, asOfPlan, drivingPlan, rowidInDimensions } from './plan'

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
  // Filters on the summary's columns alone are summed there, without reading the annotations.
  if (countable(c)) return summaryCountStatement(c)
  return plainCountStatement(db, c)
}

/**
 * The ids of a text filter's hits, from the full-text index alone, when its other fields are only
 * dimensions; null otherwise. Every annotation has one row in the index, and an id is its
 * submission's × 16 + its dimension (a CHECK of the schema): the hit's rowid tells its dimension,
 * so no hit is joined to its annotation.
 */
function searchOnlyIds(c: Constraints): SqlFragment | null {
  if (c.fts === undefined || hasConstraints({ ...c, fts: undefined, dimensions: undefined }))
    return null
  const match = sql`SELECT rowid AS id FROM annotation_search WHERE annotation_search MATCH ${c.fts}`
  if (!c.dimensions) return match
  return sql`${match} AND ${rowidInDimensions('rowid', c.dimensions)}`
}

/** The count of `c` from the annotations themselves (the benchmark's plain SQL for the shell). */
export function plainCountStatement(db: Db, c: Constraints): SqlFragment | null {
  if (c.none) return null
  if (!hasConstraints(c)) return sql`SELECT count(*) FROM annotations`
  const hits = searchOnlyIds(c)
  if (hits) return sql`SELECT count(*) FROM (${hits})`
  return countSql(drivingPlan(db, c))
}

/** One in this many rows, a background count asks whether it is still wanted. */
const LIVE_EVERY = 4093

/**
 * A count of `c` that calls `winnow_live(generation)` every few thousand rows (the count thread
 * defines it, and stops when it throws); null when the summary or nothing answers at once.
 */
export function liveCountStatement(db: Db, c: Constraints, generation: number): SqlFragment | null {
  if (c.none || countable(c)) return null
  const ids =
    searchOnlyIds(c) ??
    (() => {
      const plan = drivingPlan(db, c)
      return sql.join(
        plan.branches.map((b) => sql`SELECT a.id AS id FROM ${plan.from} WHERE ${b}`),
        ' UNION ALL ',
      )
    })()
  return sql`SELECT count(*) FROM (${ids})
    WHERE id % ${LIVE_EVERY} <> 0 OR winnow_live(${generation})`
}

// Exact totals per filter, valid while no connection has written (data_version) and this one has
// not either (total_changes): the grid asks for many pages of one filter.
const totals = new WeakMap<Db, { version: string; byFilter: Map<string, number> }>()

/**
 * The constraints of a filter, with the full-text index complete first when the filter searches
 * text (an import indexes its text after committing its rows).
 */
export function constraintsOf(db: Db, filter: AnnotationFilter): Constraints {
  const c = resolveFilter(db, filter)
  if (c.fts !== undefined) ensureSearchIndexed(db)
  return c
}

function cacheOf(db: Db): Map<string, number> {
  const version = dataVersion(db)
  let cache = totals.get(db)
  if (!cache || cache.version !== version) {
    cache = { version, byFilter: new Map() }
    totals.set(db, cache)
  }
  return cache.byFilter
}

/** The total remembered for this filter, if the data has not changed since. */
export function knownTotal(db: Db, filter: AnnotationFilter): number | undefined {
  return cacheOf(db).get(filterKey(filter))
}

export function rememberTotal(db: Db, filter: AnnotationFilter, total: number): void {
  const cache = cacheOf(db)
  if (cache.size >= 64) cache.delete(cache.keys().next().value as string)
  cache.set(filterKey(filter), total)
}

/** The exact total of a filter: remembered, or counted now. */
export function countResolved(
  db: Db,
  filter: AnnotationFilter,
  c: Constraints,
  trace?: SqlFragment[],
): number {
  const known = knownTotal(db, filter)
  if (known !== undefined) return known
  const statement = countStatement(db, c)
  if (statement) trace?.push(statement)
  const total = statement ? (pluck<number>(db, statement) ?? 0) : 0
  rememberTotal(db, filter, total)
  return total
}

/** Drops the remembered totals of `db` (benchmarks measure cold counts). */
export function forgetTotals(db: Db): void {
  totals.delete(db)
}

/** The exact total of `c` over a past view of annotations (not remembered: the view moves). */
export function countPast(db: Db, relation: SqlFragment, c: Constraints, trace?: SqlFragment[]) {
  if (c.none) return 0
  const statement = countSql(asOfPlan(relation, c))
  trace?.push(statement)
  return pluck<number>(db, statement) ?? 0
}

/**
 * The exact total of a filter, now or with ratings as they stood in `past` (a past view from
 * ratingsAsOf.ts; null for the present).
 */
export function countAnnotations(
  db: Db,
  filter: AnnotationFilter,
  past: SqlFragment | null = null,
): number {
  const c = constraintsOf(db, filter)
  return past ? countPast(db, past, c) : countResolved(db, filter, c)
}
