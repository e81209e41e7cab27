/**
 * The order of the grid's current query, kept in memory: every annotation id of the result in its
 * sort order (8 bytes a row, 8 MB for a million). Read in the background, from a second connection,
 * once a large query has stayed the same for a moment, so a jump anywhere in the result reads its block by id
 * instead of skipping rows. Dropped as soon as anything writes to the project (data, ratings).
 */
import type { ReviewPage } from '../../shared/contract/review'
import { type AnnotationFilter, type SortSpec, filterKey } from '../../shared/filter'
import { type Db, openProject } from '../db/connection'
import { orderedIds, pageOfIds } from '../db/queries/review/query'
import { dataVersion } from '../db/dataVersion'

/** Tests lower these to order small projects at once. */
export const orderTuning = {
  /** Results this large get an order (below it skipping rows is cheap). */
  minimumTotal: 20_000,
  /** How long one slice of reading holds the main thread (a request waits at most about this). */
  sliceMs: 10,
  /** How long a query must stay the same before its order is read (typing moves on). */
  settleMs: 250,
}

interface Order {
  key: string
  filter: AnnotationFilter
  sort: SortSpec
  /** The project's data version the ids were read at. */
  version: string
  ids: Float64Array
  filled: number
  done: boolean
}

const orders = new WeakMap<Db, Order>()
const pending = new WeakMap<Db, { key: string; timer: NodeJS.Timeout }>()

const keyOf = (filter: AnnotationFilter, sort: SortSpec) =>
  `${filterKey(filter)}|${sort.column}|${sort.direction}`

/** The order of `filter` and `sort` if it is known and still true. */
function currentOrder(db: Db, filter: AnnotationFilter, sort: SortSpec): Order | undefined {
  const order = orders.get(db)
  if (!order || order.key !== keyOf(filter, sort)) return undefined
  if (!db.open || dataVersion(db) !== order.version) {
    orders.delete(db)
    return undefined
  }
  return order
}

/** Rows `[offset, offset + limit)` of the query by their ids, when its order covers them. */
export function pageFromOrder(
  db: Db,
  filter: AnnotationFilter,
  sort: SortSpec,
  offset: number,
  limit: number,
): ReviewPage | undefined {
  const order = currentOrder(db, filter, sort)
  if (!order) return undefined
  const end = Math.min(offset + limit, order.ids.length)
  if (offset >= order.ids.length || end > order.filled) return undefined
  const ids = Array.from(order.ids.subarray(offset, end))
  return pageOfIds(db, filter, sort, ids, limit, order.ids.length)
}

/**
 * Reads the order of a query in the background, once it has stayed the current one for a moment:
 * a newer query cancels a wait, and replaces an order being read.
 */
export function orderSoon(db: Db, filter: AnnotationFilter, sort: SortSpec, total: number): void {
  const key = keyOf(filter, sort)
  if (currentOrder(db, filter, sort) || pending.get(db)?.key === key) return
  const waiting = pending.get(db)
  if (waiting) clearTimeout(waiting.timer)
  pending.delete(db)
  if (total < orderTuning.minimumTotal) return
  const timer = setTimeout(() => {
    pending.delete(db)
    // A query that cannot be ordered (a refused sort) keeps its pages read the usual way.
    if (db.open)
      readOrder(db, filter, sort, total, () => new Promise(setImmediate)).catch(() => undefined)
  }, orderTuning.settleMs)
  timer.unref()
  pending.set(db, { key, timer })
}

/**
 * Reads the whole order of a query from a second, read-only connection, a slice at a time, calling
 * `pause` between slices (requests run on the main connection then). Stops when another order
 * replaces it or anything writes to the project.
 */
export async function readOrder(
  db: Db,
  filter: AnnotationFilter,
  sort: SortSpec,
  total: number,
  pause: () => Promise<unknown> = () => Promise.resolve(),
): Promise<boolean> {
  const order: Order = {
    key: keyOf(filter, sort),
    filter,
    sort,
    version: dataVersion(db),
    ids: new Float64Array(total),
    filled: 0,
    done: false,
  }
  orders.set(db, order)
  const reader = openProject(db.name, { readonly: true })
  const ids = orderedIds(db, reader, filter, sort, total)
  const still = () => orders.get(db) === order && db.open && dataVersion(db) === order.version
  try {
    while (!order.done) {
      if (!still()) {
        if (orders.get(db) === order) orders.delete(db)
        return false
      }
      const started = performance.now()
      let read = 0
      for (;;) {
        const next = ids.next()
        if (next.done || order.filled >= order.ids.length) {
          order.done = true
          break
        }
        order.ids[order.filled++] = next.value
        if (++read % 256 === 0 && performance.now() - started > orderTuning.sliceMs) break
      }
      if (!order.done) await pause()
    }
    // Fewer ids than the total: the data moved under the read; the order is not true.
    if (order.filled !== order.ids.length && orders.get(db) === order) orders.delete(db)
    return orders.get(db) === order
  } catch (error) {
    if (orders.get(db) === order) orders.delete(db)
    throw error
  } finally {
    ids.return?.()
    reader.close()
  }
}
