import type { Transition } from '../../../../shared/contract/ratings'
import type { Db } from '../../connection'
import { all, pluck, pluckAll, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import type { Change, Segment } from './segments'
import { inForce } from './rows'
import { withCountsRebuiltAfter, withRatingMovesGrouped } from '../annotationCounts'

/**
 * Writing effective ratings into the `annotations.rating` / `rating_source` cache. Work lists live
 * in per-connection temp tables so a million ids never cross into JavaScript. The planner has no
 * statistics for temp tables, so joins name them first with CROSS JOIN (SQLite keeps that order).
 */

export const SOURCE = { unrated: 0, worker: 1, item: 2 } as const

/** Created on demand: a rolled-back transaction may have taken them with it. */
export function ensureWorkTables(db: Db): void {
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS rating_selection (id INTEGER PRIMARY KEY);
    CREATE TEMP TABLE IF NOT EXISTS rating_segments (
      worker_id INTEGER NOT NULL, start INTEGER NOT NULL, until INTEGER NOT NULL, value REAL,
      PRIMARY KEY (worker_id, start)) WITHOUT ROWID;
    CREATE TEMP TABLE IF NOT EXISTS rating_target (id INTEGER PRIMARY KEY, rating REAL, source INTEGER);
    CREATE TEMP TABLE IF NOT EXISTS rating_before (id INTEGER PRIMARY KEY, rating REAL, source INTEGER);
  `)
}

/** Replaces the selection with the ids a query yields (column `id`); returns how many. */
export function fillSelection(db: Db, ids: SqlFragment): number {
  ensureWorkTables(db)
  run(db, sql`DELETE FROM temp.rating_selection`)
  return run(db, sql`INSERT OR IGNORE INTO temp.rating_selection (id) SELECT id FROM (${ids})`)
    .changes
}

/** Adds ids to the selection; returns how many were new. */
export function addToSelection(db: Db, ids: SqlFragment): number {
  ensureWorkTables(db)
  return run(db, sql`INSERT OR IGNORE INTO temp.rating_selection (id) SELECT id FROM (${ids})`)
    .changes
}

/**
 * The selection in pieces of about `size` ids, in id order: a long write takes them one at a time,
 * so it can report progress and stop between them.
 */
export function selectionChunks(db: Db, size: number): { ids: SqlFragment; count: number }[] {
  const starts = pluckAll<number>(
    db,
    sql`SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM temp.rating_selection)
        WHERE (n - 1) % ${size} = 0 ORDER BY id`,
  )
  const total = pluck<number>(db, sql`SELECT count(*) FROM temp.rating_selection`) ?? 0
  return starts.map((start, i) => {
    const end = starts[i + 1]
    return {
      ids:
        end === undefined
          ? sql`SELECT id FROM temp.rating_selection WHERE id >= ${start}`
          : sql`SELECT id FROM temp.rating_selection WHERE id >= ${start} AND id < ${end}`,
      count: end === undefined ? total - i * size : size,
    }
  })
}

/** Workers of the selected annotations. */
export function selectionWorkers(db: Db): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT DISTINCT a.worker_id FROM temp.rating_selection s CROSS JOIN annotations a ON a.id = s.id
        WHERE a.worker_id IS NOT NULL`,
  )
}

export function fillSegments(db: Db, byWorker: ReadonlyMap<number, readonly Segment[]>): void {
  ensureWorkTables(db)
  run(db, sql`DELETE FROM temp.rating_segments`)
  const insert = db.prepare(
    'INSERT INTO temp.rating_segments (worker_id, start, until, value) VALUES (?, ?, ?, ?)',
  )
  for (const [workerId, segments] of byWorker) {
    for (const s of segments) insert.run(workerId, s.start, s.until, s.value)
  }
}

/**
 * Effective ratings of the selection at `asOf` into `rating_target` (or `ratings_as_of`): the
 * worker segment covering the submission time, overridden by the latest item rating in force.
 * `items: false` leaves item ratings out (a preview of clearing them).
 */
export function computeTargets(
  db: Db,
  asOf: number,
  {
    into = 'rating_target',
    items = true,
  }: { into?: 'rating_target' | 'ratings_as_of'; items?: boolean } = {},
): void {
  const target = sql.raw(`temp.${into}`)
  run(db, sql`DELETE FROM ${target}`)
  run(
    db,
    sql`INSERT INTO ${target} (id, rating, source)
        SELECT a.id, g.value, CASE WHEN g.value IS NULL THEN ${SOURCE.unrated} ELSE ${SOURCE.worker} END
        FROM temp.rating_selection s CROSS JOIN annotations a ON a.id = s.id
        LEFT JOIN temp.rating_segments g ON g.worker_id = a.worker_id
          AND g.start <= a.submitted_at AND a.submitted_at < g.until`,
  )
  if (!items) return
  run(
    db,
    sql`UPDATE ${target} SET rating = x.value, source = ${SOURCE.item}
        FROM (SELECT annotation_id, value FROM (
            SELECT i.annotation_id, i.value, row_number() OVER (
              PARTITION BY i.annotation_id ORDER BY i.recorded_at DESC, i.id DESC) AS rn
            FROM temp.rating_selection s CROSS JOIN item_ratings i ON i.annotation_id = s.id
            WHERE ${inForce('item', 'i', asOf)})
          WHERE rn = 1 AND value IS NOT NULL) AS x
        WHERE ${target}.id = x.annotation_id`,
  )
}

/** Starts recording old values, so a change set can report exactly what moved from what to what. */
export function beginTracking(db: Db): void {
  ensureWorkTables(db)
  run(db, sql`DELETE FROM temp.rating_before`)
}

/** Remembers the current values of rows `where` selects (the first snapshot of a row wins). */
function snapshot(db: Db, where: SqlFragment): void {
  run(
    db,
    sql`INSERT OR IGNORE INTO temp.rating_before (id, rating, source)
        SELECT id, rating, rating_source FROM annotations WHERE ${where}`,
  )
}

export function trackedTransitions(db: Db): Transition[] {
  return all<Transition>(
    db,
    sql`SELECT b.rating AS "from", a.rating AS "to", count(*) AS count
        FROM temp.rating_before b CROSS JOIN annotations a ON a.id = b.id
        WHERE a.rating IS NOT b.rating GROUP BY 1, 2 ORDER BY 3 DESC, 1 DESC, 2 DESC`,
  )
}

/** Writes `rating_target` into the cache where it differs; `track: false` skips the snapshot. */
export function applyTargets(db: Db, { track = true }: { track?: boolean } = {}): number {
  const differing = sql`SELECT t.id FROM temp.rating_target t CROSS JOIN annotations a ON a.id = t.id
    WHERE a.rating IS NOT t.rating OR a.rating_source != t.source`
  if (track) snapshot(db, sql`id IN (${differing})`)
  const rows = pluck<number>(db, sql`SELECT count(*) FROM (${differing})`) ?? 0
  if (rows === 0) return 0
  return writeMany(
    db,
    rows,
    () =>
      run(
        db,
        sql`UPDATE annotations SET (rating, rating_source) =
            (SELECT t.rating, t.source FROM temp.rating_target t WHERE t.id = annotations.id)
          WHERE id IN (${differing})`,
      ).changes,
  )
}

/** Above this many rows (and a third of the table) a write rebuilds the rating indexes instead. */
const MANY_ROWS = 100_000

/** The fewest rows a write of ratings must change to be a bulk write (see `writeMany`). */
export function manyRowsFrom(db: Db, atLeast = MANY_ROWS): number {
  const total = pluck<number>(db, sql`SELECT count(*) FROM annotations`) ?? 0
  return Math.max(atLeast, Math.ceil(total / 3))
}

/** Whether writing `rows` ratings is a bulk write: many rows and a good part of the table. */
function isManyRows(db: Db, rows: number, atLeast = MANY_ROWS): boolean {
  return rows >= atLeast && rows >= manyRowsFrom(db, atLeast)
}

/**
 * Runs a write of `rows` annotations' ratings. A large one drops the indexes that hold the rating
 * and builds them again afterwards: sorting once is several times cheaper than moving each entry.
 * Inside the caller's transaction, so a failure restores them with everything else.
 */
export function writeMany(db: Db, rows: number, write: () => number, atLeast = MANY_ROWS): number {
  if (!db.inTransaction || !isManyRows(db, rows, atLeast)) return write()
  return withRatingIndexesRebuilt(db, write)
}

/** Runs `write` with the indexes that hold the rating dropped, and builds them again after it. */
export function withRatingIndexesRebuilt<T>(db: Db, write: () => T): T {
  if (!db.inTransaction) throw new Error('rating indexes are rebuilt only inside a transaction')
  const indexes = all<{ name: string; sql: string }>(
    db,
    sql`SELECT s.name, s.sql FROM sqlite_schema s WHERE s.type = 'index' AND s.tbl_name = 'annotations'
          AND s.sql IS NOT NULL AND EXISTS (
            SELECT 1 FROM pragma_index_info(s.name) c WHERE c.name IN ('rating', 'rating_source'))`,
  )
  // Names come from the schema itself, quoted as identifiers.
  for (const index of indexes) db.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`)
  const result = withCountsRebuiltAfter(db, write)
  for (const index of indexes) db.exec(index.sql)
  return result
}

function inSegment(workerId: number, s: Segment): SqlFragment {
  return sql`worker_id = ${workerId} AND submitted_at >= ${s.start} AND submitted_at < ${s.until}
    AND rating_source != ${SOURCE.item}`
}

/**
 * Rewrites the timeline-rated rows of one worker inside the changed pieces and returns what moved.
 * A consistent cache holds each piece's old value in exactly those rows, so the rows an UPDATE
 * changes are its transition count: no read beforehand. `track` also snapshots old values, for
 * change sets that move rows more than once.
 */
export function applyWorkerSegments(
  db: Db,
  workerId: number,
  changes: readonly Change[],
  { track = true }: { track?: boolean } = {},
): Transition[] {
  const out: Transition[] = []
  const moves = changes.map((c) => ({ where: inSegment(workerId, c), to: c.value }))
  withRatingMovesGrouped(db, moves, () => {
    for (const c of changes) {
      const source = c.value === null ? SOURCE.unrated : SOURCE.worker
      const where = sql`${inSegment(workerId, c)} AND (rating IS NOT ${c.value} OR rating_source != ${source})`
      if (track) snapshot(db, where)
      const n = run(
        db,
        sql`UPDATE annotations SET rating = ${c.value}, rating_source = ${source} WHERE ${where}`,
      ).changes
      if (n > 0) out.push({ from: c.from, to: c.value, count: n })
    }
  })
  return mergeTransitions(out)
}

/** What rewriting those pieces would move, without writing. */
export function previewWorkerSegments(
  db: Db,
  workerId: number,
  changes: readonly Change[],
): Transition[] {
  const out: Transition[] = []
  for (const c of changes) {
    const n =
      pluck<number>(
        db,
        sql`SELECT count(*) FROM annotations WHERE ${inSegment(workerId, c)} AND rating IS NOT ${c.value}`,
      ) ?? 0
    if (n > 0) out.push({ from: c.from, to: c.value, count: n })
  }
  return mergeTransitions(out)
}

/** Sums counts of the same pair; most moved first, then by rating (high to low, unrated last). */
export function mergeTransitions(parts: readonly Transition[]): Transition[] {
  const byPair = new Map<string, Transition>()
  for (const t of parts) {
    const key = `${t.from}>${t.to}`
    const seen = byPair.get(key)
    if (seen) seen.count += t.count
    else byPair.set(key, { ...t })
  }
  const rank = (v: number | null) => (v === null ? -Infinity : v)
  return [...byPair.values()].sort(
    (a, b) => b.count - a.count || rank(b.from) - rank(a.from) || rank(b.to) - rank(a.to),
  )
}

/** What setting every selected annotation to `value` would move, without writing. */
export function previewSelectionTo(db: Db, value: number): Transition[] {
  return all<Transition>(
    db,
    sql`SELECT a.rating AS "from", ${value} AS "to", count(*) AS count
        FROM temp.rating_selection s CROSS JOIN annotations a ON a.id = s.id
        WHERE a.rating IS NOT ${value} GROUP BY a.rating ORDER BY 3 DESC, 1 DESC`,
  )
}

/** What writing `rating_target` would move, without writing. */
export function previewTargets(db: Db): Transition[] {
  return all<Transition>(
    db,
    sql`SELECT a.rating AS "from", t.rating AS "to", count(*) AS count
        FROM temp.rating_target t CROSS JOIN annotations a ON a.id = t.id
        WHERE a.rating IS NOT t.rating GROUP BY 1, 2 ORDER BY 3 DESC, 1 DESC, 2 DESC`,
  )
}

/**
 * Sets every selected annotation to an item rating `value` (just recorded, so the latest). Untracked:
 * `previewSelectionTo` beforehand gives the exact counts, since each row moves once. `eachChunk`
 * runs before each piece of the selection (progress, cancel) and once more before the rating
 * indexes are rebuilt, if they were dropped.
 */
export function applySelectionTo(
  db: Db,
  value: number,
  rows: number,
  eachChunk: (done: number, rebuilding: boolean) => void = () => undefined,
): number {
  const chunks = selectionChunks(db, WRITE_CHUNK)
  const write = (): number => {
    let changed = 0
    let done = 0
    for (const chunk of chunks) {
      eachChunk(done, false)
      const where = sql`id IN (${chunk.ids})
        AND (rating IS NOT ${value} OR rating_source != ${SOURCE.item})`
      changed += run(
        db,
        sql`UPDATE annotations SET rating = ${value}, rating_source = ${SOURCE.item} WHERE ${where}`,
      ).changes
      done += chunk.count
    }
    eachChunk(done, true)
    return changed
  }
  return writeMany(db, rows, write)
}

/**
 * Puts item ratings just recorded in force, each annotation its own value (`rows` yields `id` and
 * `value`): the latest item rating is the effective rating. Untracked, as `applySelectionTo`.
 */
export function applyItemValues(db: Db, rows: SqlFragment, count: number): number {
  return writeMany(
    db,
    count,
    () =>
      run(
        db,
        sql`UPDATE annotations SET rating = r.value, rating_source = ${SOURCE.item}
            FROM (${rows}) AS r WHERE annotations.id = r.id`,
      ).changes,
  )
}

/** Annotations a long write takes at once between its progress reports and cancel checks. */
export const WRITE_CHUNK = 25_000
