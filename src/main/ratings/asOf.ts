import type { Db } from '../db/connection'
import { lastRatingActivity, workerRatingsInForce } from '../db/queries/ratings/rows'
import { pastRatingsStamp, selectRatedAfter, writePastRatings } from '../db/queries/ratings/asOf'
import type { SqlFragment } from '../db/sql'
import { timelinesByWorker } from './timeline'

/** Per connection: the moment its past view was built for, and from which data. */
const built = new WeakMap<Db, { stamp: string; relation: SqlFragment }>()

/**
 * The annotations as their ratings stood at `asOf` (epoch ms), for `FROM ${past} AS a`: a
 * per-connection temp view with the columns of `annotations`. Null for the present (no `asOf`,
 * or nothing rated since): the live table and its index plans serve. Cheap to call per query:
 * the view is rebuilt only when `asOf` or the data changed.
 */
export function pastAnnotations(db: Db, asOf?: number | null): SqlFragment | null {
  if (asOf === undefined || asOf === null) return null
  const last = lastRatingActivity(db)
  if (asOf >= last) return null
  const stamp = `${asOf}|${pastRatingsStamp(db, last)}`
  const known = built.get(db)
  if (known?.stamp === stamp) return known.relation
  const workers = selectRatedAfter(db, asOf)
  const relation = writePastRatings(
    db,
    asOf,
    timelinesByWorker(workers, workerRatingsInForce(db, workers, asOf)),
  )
  built.set(db, { stamp, relation })
  return relation
}
