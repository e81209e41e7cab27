import type { Db } from '../../connection'
import { all, get, pluck, pluckAll, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'

/** "As of" that includes everything recorded so far (epoch ms). */
export const NOW = Number.MAX_SAFE_INTEGER

export interface WorkerRatingRow {
  id: number
  workerId: number
  value: number
  effectiveFrom: number
  recordedAt: number
}

export interface WorkerRatingDetail extends WorkerRatingRow {
  author: string
  note: string
  changeSet: number
  retracted: boolean
}

/** Whether rating row `<alias>.id` of `target` was in force at `asOf`: recorded, not retracted. */
export function inForce(target: 'worker' | 'item', alias: 'w' | 'i', asOf: number): SqlFragment {
  const ref = sql.raw(`${alias}.id`)
  return sql`${sql.raw(alias)}.recorded_at <= ${asOf} AND coalesce((
      SELECT r.retracted FROM rating_retractions r
      WHERE r.target = ${target} AND r.rating_id = ${ref} AND r.recorded_at <= ${asOf}
      ORDER BY r.recorded_at DESC, r.id DESC LIMIT 1), 0) = 0`
}

/** JSON text of an id list, bound as one value and read back with `json_each`. */
export function idList(ids: readonly number[]): SqlFragment {
  return sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`
}

const workerRowColumns = sql`w.id, w.worker_id AS workerId, w.value, w.effective_from AS effectiveFrom,
  w.recorded_at AS recordedAt`

/** Worker ratings in force at `asOf` for the given workers, or for every worker. */
export function workerRatingsInForce(
  db: Db,
  workers: readonly number[] | 'all',
  asOf = NOW,
): WorkerRatingRow[] {
  const which = workers === 'all' ? sql`1` : sql`w.worker_id IN ${idList(workers)}`
  return all<WorkerRatingRow>(
    db,
    sql`SELECT ${workerRowColumns} FROM worker_ratings w WHERE ${which} AND ${inForce('worker', 'w', asOf)}`,
  )
}

/** Every rating row of a worker, retracted or not, for the timeline view. */
export function workerRatingHistory(db: Db, workerId: number): WorkerRatingDetail[] {
  return all<Omit<WorkerRatingDetail, 'retracted'> & { retracted: number }>(
    db,
    sql`SELECT ${workerRowColumns}, w.author, w.note, w.change_set_id AS changeSet,
          NOT (${inForce('worker', 'w', NOW)}) AS retracted
        FROM worker_ratings w WHERE w.worker_id = ${workerId}
        ORDER BY w.effective_from DESC, w.recorded_at DESC, w.id DESC`,
  ).map((row) => ({ ...row, retracted: row.retracted === 1 }))
}

export interface NewWorkerRating {
  workerId: number
  value: number
  effectiveFrom: number
  recordedAt: number
  author: string
  note: string
  changeSetId: number
}

export function insertWorkerRating(db: Db, r: NewWorkerRating): number {
  const result = run(
    db,
    sql`INSERT INTO worker_ratings (worker_id, value, effective_from, recorded_at, author, note, change_set_id)
        VALUES (${r.workerId}, ${r.value}, ${r.effectiveFrom}, ${r.recordedAt}, ${r.author}, ${r.note},
          ${r.changeSetId})`,
  )
  return Number(result.lastInsertRowid)
}

export interface NewItemRatings {
  /** A query yielding annotation ids (column `id`), and whatever `value` and `note` read. */
  annotations: SqlFragment
  /** A SQL value expression over the selected row `s` (e.g. a bound number), or null to clear. */
  value: SqlFragment
  recordedAt: number
  author: string
  /** The note, or an expression over `s` giving each row its own. */
  note: string | SqlFragment
  changeSetId: number
}

export function insertItemRatings(db: Db, r: NewItemRatings): number {
  return run(
    db,
    sql`INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)
        SELECT s.id, ${r.value}, ${r.recordedAt}, ${r.author}, ${r.note}, ${r.changeSetId}
        FROM (${r.annotations}) AS s ORDER BY s.id`,
  ).changes
}

export function workerCount(db: Db): number {
  return pluck<number>(db, sql`SELECT count(*) FROM workers`) ?? 0
}

export function allWorkerIds(db: Db): number[] {
  return pluckAll<number>(db, sql`SELECT id FROM workers ORDER BY id`)
}

export function workerByExternalId(
  db: Db,
  externalId: string,
): { id: number; externalId: string } | undefined {
  return get(
    db,
    sql`SELECT id, external_id AS externalId FROM workers WHERE external_id = ${externalId}`,
  )
}

export function workerById(
  db: Db,
  workerId: number,
): { id: number; externalId: string } | undefined {
  return get(db, sql`SELECT id, external_id AS externalId FROM workers WHERE id = ${workerId}`)
}

/** What a change set wrote: its rating rows and retractions, to be turned around by a revert. */
export interface ChangeSetRows {
  workerRatings: number
  itemRatings: number
  retractions: number
  /** Workers whose timeline the change set touched. */
  workers: number[]
}

export function changeSetRows(db: Db, changeSetId: number): ChangeSetRows {
  const count = (table: 'worker_ratings' | 'item_ratings' | 'rating_retractions'): number =>
    pluck<number>(
      db,
      sql`SELECT count(*) FROM ${sql.raw(table)} WHERE change_set_id = ${changeSetId}`,
    ) ?? 0
  const workers = pluckAll<number>(
    db,
    sql`SELECT worker_id FROM worker_ratings WHERE change_set_id = ${changeSetId}
        UNION
        SELECT w.worker_id FROM rating_retractions r JOIN worker_ratings w ON w.id = r.rating_id
        WHERE r.change_set_id = ${changeSetId} AND r.target = 'worker'`,
  )
  return {
    workerRatings: count('worker_ratings'),
    itemRatings: count('item_ratings'),
    retractions: count('rating_retractions'),
    workers,
  }
}

/** Annotations whose item ratings a change set wrote or switched, as a query of ids. */
export function changeSetItemAnnotations(changeSetId: number): SqlFragment {
  return sql`SELECT annotation_id AS id FROM item_ratings WHERE change_set_id = ${changeSetId}
    UNION
    SELECT i.annotation_id FROM rating_retractions r JOIN item_ratings i ON i.id = r.rating_id
    WHERE r.change_set_id = ${changeSetId} AND r.target = 'item'`
}

/**
 * The compensating rows of a revert: every rating row the reverted change set added is retracted,
 * and every retraction it made is turned around (so a revert of a revert re-applies).
 */
export function insertCompensatingRows(
  db: Db,
  reverted: number,
  revert: { id: number; at: number },
): number {
  let n = 0
  for (const target of ['worker', 'item'] as const) {
    const table = sql.raw(target === 'worker' ? 'worker_ratings' : 'item_ratings')
    n += run(
      db,
      sql`INSERT INTO rating_retractions (target, rating_id, retracted, recorded_at, change_set_id)
          SELECT ${target}, id, 1, ${revert.at}, ${revert.id} FROM ${table} WHERE change_set_id = ${reverted}
          ORDER BY id`,
    ).changes
  }
  n += run(
    db,
    sql`INSERT INTO rating_retractions (target, rating_id, retracted, recorded_at, change_set_id)
        SELECT target, rating_id, 1 - retracted, ${revert.at}, ${revert.id} FROM rating_retractions
        WHERE change_set_id = ${reverted} ORDER BY id`,
  ).changes
  return n
}

/** When rating rows were last written or switched (epoch ms), or 0. */
export function lastRatingActivity(db: Db): number {
  return (
    pluck<number>(
      db,
      sql`SELECT max(m) FROM (SELECT max(recorded_at) AS m FROM worker_ratings
          UNION ALL SELECT max(recorded_at) FROM item_ratings
          UNION ALL SELECT max(recorded_at) FROM rating_retractions)`,
    ) ?? 0
  )
}

/** Whether a change set wrote more than `n` rating rows and retractions (counted no further). */
export function changeSetWroteMoreThan(db: Db, changeSetId: number, n: number): boolean {
  const rows = sql`SELECT 1 FROM worker_ratings WHERE change_set_id = ${changeSetId}
    UNION ALL SELECT 1 FROM item_ratings WHERE change_set_id = ${changeSetId}
    UNION ALL SELECT 1 FROM rating_retractions WHERE change_set_id = ${changeSetId}`
  return (pluck<number>(db, sql`SELECT count(*) FROM (${rows} LIMIT ${n + 1})`) ?? 0) > n
}
