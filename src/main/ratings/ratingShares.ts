import type { RatingShares } from '../../shared/contract/dashboard'
import type { Db } from '../db/connection'
import { byRatingDesc } from '../db/queries/dashboard'
import { workerCount, workerRatingsInForce } from '../db/queries/ratings/rows'
import { countByRating } from '../db/queries/ratings/asOf'
import { latestByWorker } from './timeline'

/**
 * The dashboard's ratings chart: workers by the rating in force for them now (by the timeline's
 * rule, as the review grid's effective ratings are), and annotations by effective rating.
 */
export function ratingShares(db: Db): RatingShares {
  const latest = latestByWorker(workerRatingsInForce(db, 'all'))
  const workers = new Map<number | null, number>()
  for (const rating of latest.values()) workers.set(rating, (workers.get(rating) ?? 0) + 1)
  // Every other worker is unrated: counted, not listed.
  const unrated = workerCount(db) - latest.size
  if (unrated > 0) workers.set(null, unrated)
  return {
    workers: [...workers].map(([rating, n]) => ({ rating, n })).sort(byRatingDesc),
    annotations: countByRating(db),
  }
}
