import type { Db } from '../db/connection'
import {
  dimensionsFilled,
  submissionsPerDay,
  tierOverTime,
  workerDimensions,
} from '../db/queries/dashboard'
import { dataVersion } from '../db/dataVersion'
import { ratingShares } from '../ratings/ratingShares'

// A chart's figures stay valid until any connection writes to the project: at a million
// annotations an aggregate reads the whole of an index, so switching pages must not redo it.
const cache = new WeakMap<Db, { version: string; values: Map<string, unknown> }>()

function remembered<T>(db: Db, key: string, compute: () => T): T {
  const version = dataVersion(db)
  let entry = cache.get(db)
  if (!entry || entry.version !== version) {
    entry = { version, values: new Map() }
    cache.set(db, entry)
  }
  if (entry.values.has(key)) return entry.values.get(key) as T
  const value = compute()
  entry.values.set(key, value)
  return value
}

export const dashboard = {
  submissionsPerDay: (db: Db) => remembered(db, 'days', () => submissionsPerDay(db)),
  dimensions: (db: Db) => remembered(db, 'dimensions', () => dimensionsFilled(db)),
  ratings: (db: Db) => remembered(db, 'ratings', () => ratingShares(db)),
  tierOverTime: (db: Db) => remembered(db, 'tiers', () => tierOverTime(db)),
  workerDimensions: (db: Db, limit: number | null) =>
    remembered(db, `workers:${limit ?? 'all'}`, () => workerDimensions(db, limit)),
}
