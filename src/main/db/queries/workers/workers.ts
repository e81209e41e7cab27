import { UserError } from '../../../../shared/contract/errors'
import type { WorkerMatch, WorkerPanel } from '../../../../shared/contract/review'
import type { Db } from '../../connection'
import { all, get, pluck } from '../../connection'
import { sql } from '../../sql'
import { likeContains } from '../review/filter'

/** The distinct effective ratings, one seek of ann_rating each. */
const DISTINCT_RATINGS = sql.raw(`WITH RECURSIVE r(v) AS (SELECT min(rating) FROM annotations
  UNION ALL SELECT (SELECT min(rating) FROM annotations WHERE rating > r.v) FROM r WHERE r.v IS NOT NULL)`)

const DIMENSIONS = '[1,2,3,4,5,6,7,8,9,10]'

// The crowd's annotations per dimension change only when annotations are added: remembered by
// the count and the last id rather than recounted for every panel.
const crowds = new WeakMap<Db, { key: string; counts: number[] }>()

function crowdProfile(db: Db): number[] {
  const key = String(
    pluck<string>(
      db,
      sql`SELECT (SELECT count(*) FROM annotations) || ':' || (SELECT max(id) FROM annotations)`,
    ),
  )
  const known = crowds.get(db)
  if (known?.key === key) return known.counts
  const counts = byDimension(
    all(
      db,
      sql`SELECT value AS dimension, (SELECT count(*) FROM annotations INDEXED BY ann_dimension
            WHERE dimension = value) AS n FROM json_each(${DIMENSIONS})`,
    ),
  )
  crowds.set(db, { key, counts })
  return counts
}

function workerId(db: Db, externalId: string): number {
  const id = pluck<number>(db, sql`SELECT id FROM workers WHERE external_id = ${externalId}`)
  if (id === undefined) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-worker',
      message: `No worker ${externalId}.`,
    })
  }
  return id
}

function byDimension(rows: Array<{ dimension: number; n: number }>): number[] {
  const counts = Array.from({ length: 10 }, () => 0)
  for (const row of rows)
    if (row.dimension >= 1 && row.dimension <= 10) counts[row.dimension - 1] = row.n
  return counts
}

function shares(counts: number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0)
  return counts.map((n) => (total === 0 ? 0 : n / total))
}

/** The worker panel: volume, dates, dimension profile against the crowd, ratings. */
export function workerPanel(db: Db, externalId: string): WorkerPanel {
  const id = workerId(db, externalId)
  const subs = get<{ n: number; first: number | null; last: number | null }>(
    db,
    sql`SELECT count(*) AS n, min(submitted_at) AS first, max(submitted_at) AS last
        FROM submissions WHERE worker_id = ${id}`,
  ) ?? { n: 0, first: null, last: null }
  // Ten seeks of ann_dimension each: no grouping of a busy worker's hundred thousand rows.
  const mine = byDimension(
    all(
      db,
      sql`SELECT value AS dimension, (SELECT count(*) FROM annotations INDEXED BY ann_dimension
            WHERE dimension = value AND worker_id = ${id}) AS n FROM json_each(${DIMENSIONS})`,
    ),
  )
  const crowd = crowdProfile(db)
  const annotations = mine.reduce((a, b) => a + b, 0)
  const mineShares = shares(mine)
  const crowdShares = shares(crowd)
  const fileRatings = all<WorkerPanel['fileRatings'][number]>(
    db,
    sql`SELECT file_rating AS rating, count(*) AS submissions, min(submitted_at) AS first,
          max(submitted_at) AS last
        FROM submissions WHERE worker_id = ${id} GROUP BY file_rating ORDER BY first, rating`,
  )
  const ratings = all<{ rating: number | null; annotations: number }>(
    db,
    sql`${DISTINCT_RATINGS}
        SELECT v AS rating, (SELECT count(*) FROM annotations a INDEXED BY ann_rating
          WHERE a.rating = r.v AND a.worker_id = ${id}) AS annotations FROM r WHERE v IS NOT NULL
        UNION ALL
        SELECT NULL, (SELECT count(*) FROM annotations a INDEXED BY ann_rating
          WHERE a.rating IS NULL AND a.worker_id = ${id})`,
  ).filter((r) => r.annotations > 0)
  return {
    id,
    workerId: externalId,
    submissions: subs.n,
    annotations,
    averageDimensions: subs.n === 0 ? 0 : annotations / subs.n,
    dimensionProfile: mine.map((_, i) => ({
      dimension: i + 1,
      worker: mineShares[i] ?? 0,
      crowd: crowdShares[i] ?? 0,
    })),
    firstSubmittedAt: subs.first,
    lastSubmittedAt: subs.last,
    fileRatings,
    ratings: ratings.sort((a, b) => (b.rating ?? -Infinity) - (a.rating ?? -Infinity)),
  }
}

/** Type-ahead: ids starting with `query` first, then ids containing it, each with its volume. */
export function workerMatches(db: Db, query: string, limit: number): WorkerMatch[] {
  const text = query.trim()
  const prefix = likeContains(text).slice(1) // `text%`
  return all<WorkerMatch>(
    db,
    sql`SELECT w.external_id AS workerId,
          (SELECT count(*) FROM annotations INDEXED BY ann_worker WHERE worker_id = w.id) AS annotations
        FROM workers w
        WHERE w.external_id LIKE ${likeContains(text)} ESCAPE '\\'
        ORDER BY w.external_id LIKE ${prefix} ESCAPE '\\' DESC, length(w.external_id), w.external_id
        LIMIT ${limit}`,
  )
}
