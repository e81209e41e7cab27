import type { Db } from '../../connection'
import { all, pluckAll, run } from '../../connection'
import { sql } from '../../sql'

/**
 * A change set's rating rows as a team ships them between replicas: read where they were made,
 * written where they are pulled. The SQL that records ratings stays with the rating queries.
 */

// What a change set wrote, in terms every replica shares: bulk rows keep the ids they have on the
// server, and a rating row is named by its change set's global id and its place within it.

export interface RatingRowsPayload {
  /** Authors and notes, referred to by index. */
  strings: string[]
  /** [worker id, value, commit date, author, note] */
  workers: [number, number, number, number, number][]
  /** [annotation id, value or null, author, note] */
  items: [number, number | null, number, number][]
  /** ['worker' | 'item', change set uid (index into strings), ordinal in it, retracted 0/1] */
  retractions: ['worker' | 'item', number, number, 0 | 1][]
}

export function encodeRatingRows(db: Db, changeSetId: number): RatingRowsPayload {
  const strings: string[] = []
  const index = new Map<string, number>()
  const ref = (text: string): number => {
    let i = index.get(text)
    if (i === undefined) {
      i = strings.length
      strings.push(text)
      index.set(text, i)
    }
    return i
  }
  const workers = all<{ w: number; v: number; f: number; a: string; n: string }>(
    db,
    sql`SELECT worker_id AS w, value AS v, effective_from AS f, author AS a, note AS n
        FROM worker_ratings WHERE change_set_id = ${changeSetId} ORDER BY id`,
  ).map((r): [number, number, number, number, number] => [r.w, r.v, r.f, ref(r.a), ref(r.n)])
  const items = all<{ i: number; v: number | null; a: string; n: string }>(
    db,
    sql`SELECT annotation_id AS i, value AS v, author AS a, note AS n
        FROM item_ratings WHERE change_set_id = ${changeSetId} ORDER BY id`,
  ).map((r): [number, number | null, number, number] => [r.i, r.v, ref(r.a), ref(r.n)])
  const retractions = all<{ target: 'worker' | 'item'; uid: string; ordinal: number; r: 0 | 1 }>(
    db,
    sql`SELECT r.target, t.uid, o.ordinal, r.retracted AS r
        FROM rating_retractions r
        JOIN (SELECT 'worker' AS target, id, change_set_id,
                row_number() OVER (PARTITION BY change_set_id ORDER BY id) - 1 AS ordinal
              FROM worker_ratings WHERE change_set_id IN (SELECT w.change_set_id FROM rating_retractions x
                JOIN worker_ratings w ON w.id = x.rating_id WHERE x.change_set_id = ${changeSetId} AND x.target = 'worker')
              UNION ALL
              SELECT 'item', id, change_set_id,
                row_number() OVER (PARTITION BY change_set_id ORDER BY id) - 1
              FROM item_ratings WHERE change_set_id IN (SELECT i.change_set_id FROM rating_retractions x
                JOIN item_ratings i ON i.id = x.rating_id WHERE x.change_set_id = ${changeSetId} AND x.target = 'item')
             ) o ON o.target = r.target AND o.id = r.rating_id
        JOIN change_sets t ON t.id = o.change_set_id
        WHERE r.change_set_id = ${changeSetId} ORDER BY r.id`,
  ).map((r): ['worker' | 'item', number, number, 0 | 1] => [r.target, ref(r.uid), r.ordinal, r.r])
  return { strings, workers, items, retractions }
}

/** Writes the rows a payload carries into change set `changeSetId`, recorded at `at`. */
export function insertRatingRows(
  db: Db,
  changeSetId: number,
  at: number,
  payload: RatingRowsPayload,
): void {
  const text = (i: number): string => payload.strings[i] ?? ''
  const worker = db.prepare(
    `INSERT INTO worker_ratings (worker_id, value, effective_from, recorded_at, author, note, change_set_id)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  )
  for (const [w, v, f, a, n] of payload.workers)
    worker.run(w, v, f, at, text(a), text(n), changeSetId)
  if (payload.items.length > 0) {
    run(
      db,
      sql`INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)
          SELECT j.value ->> 0, j.value ->> 1, ${at}, s.value ->> (j.value ->> 2), s.value ->> (j.value ->> 3),
            ${changeSetId}
          FROM json_each(${JSON.stringify(payload.items)}) j, (SELECT ${JSON.stringify(payload.strings)} AS value) s
          ORDER BY j.key`,
    )
  }
  const groups = new Map<string, typeof payload.retractions>()
  for (const r of payload.retractions) {
    const key = `${r[0]}:${text(r[1])}`
    const list = groups.get(key) ?? []
    list.push(r)
    groups.set(key, list)
  }
  const retract = db.prepare(
    `INSERT INTO rating_retractions (target, rating_id, retracted, recorded_at, change_set_id)
     VALUES (?, ?, ?, ?, ?)`,
  )
  // Inserted in the payload's order, so rating_retractions ids keep the origin's order.
  const idsByGroup = new Map<string, number[]>()
  for (const [key, list] of groups) {
    const [target, uid] = [list[0]?.[0] ?? 'worker', key.slice(key.indexOf(':') + 1)]
    const table = sql.raw(target === 'worker' ? 'worker_ratings' : 'item_ratings')
    idsByGroup.set(
      key,
      pluckAll<number>(
        db,
        sql`SELECT r.id FROM ${table} r JOIN change_sets t ON t.id = r.change_set_id
            WHERE t.uid = ${uid} ORDER BY r.id`,
      ),
    )
  }
  for (const [target, uidIndex, ordinal, retracted] of payload.retractions) {
    const ids = idsByGroup.get(`${target}:${text(uidIndex)}`) ?? []
    const id = ids[ordinal]
    if (id === undefined) throw new Error(`retraction of a ${target} rating this replica lacks`)
    retract.run(target, id, retracted, at, changeSetId)
  }
}
