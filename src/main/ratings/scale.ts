import {
  DEFAULT_RATING_SCALE,
  RATING_SCALE_SETTING,
  type RatingLevel,
  ratingLevelSchema,
} from '../../shared/contract/ratings'
import { UserError } from '../../shared/contract/errors'
import { ratingKey } from '../../shared/ratings/key'
import type { Db } from '../db/connection'
import { ratingValuesInUse } from '../db/queries/ratings/timeline'
import { readSetting } from '../db/queries/settings'
import { changeSetting } from '../changes/settings'

/** A stored scale as the project uses it: the default when it is missing or unreadable. */
export function scaleOrDefault(stored: unknown): RatingLevel[] {
  const parsed = ratingLevelSchema.array().min(1).safeParse(stored)
  return parsed.success ? parsed.data : DEFAULT_RATING_SCALE.map((level) => ({ ...level }))
}

/** The project's rating scale, highest first. */
export function ratingScale(db: Db): RatingLevel[] {
  return scaleOrDefault(readSetting(db, RATING_SCALE_SETTING))
}

/** Refuses a rating that is not a step of the scale (bad input, not an internal error). */
export function assertOnScale(db: Db, value: number, field = 'rating'): void {
  const scale = ratingScale(db)
  if (scale.some((level) => level.value === value)) return
  throw new UserError({
    type: 'invalid-argument',
    code: 'rating-not-on-scale',
    message: `${value} is not on this project's rating scale (${scale.map((l) => ratingKey(l.value)).join(', ')}).`,
    field,
  })
}

/**
 * A scale the project may take: values distinct, and none still in use (as an effective rating or
 * in a rating in force) dropped, or the page could no longer show or filter it.
 */
export function checkScale(db: Db, scale: readonly RatingLevel[]): void {
  const values = scale.map((l) => l.value)
  if (new Set(values).size !== values.length) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'duplicate-rating',
      message: 'Each value may appear on the scale only once.',
      field: 'scale',
    })
  }
  const dropped = ratingValuesInUse(db).filter((v) => !values.includes(v))
  if (dropped.length > 0) {
    throw new UserError({
      type: 'conflict',
      code: 'rating-in-use',
      message: `Ratings ${dropped.map(ratingKey).join(', ')} are still in use; re-rate those items first.`,
      field: 'scale',
    })
  }
}

/** Replaces the scale, as one change set. */
export function setRatingScale(
  db: Db,
  scale: readonly RatingLevel[],
  author: string,
): RatingLevel[] {
  const sorted = [...scale].sort((a, b) => b.value - a.value)
  db.transaction(() => {
    checkScale(db, sorted)
    changeSetting(db, {
      key: RATING_SCALE_SETTING,
      value: sorted,
      author,
      description: `Rating scale: ${sorted.map((l) => `${ratingKey(l.value)} ${l.label}`).join(', ')}`,
    })
  }).immediate()
  return sorted
}
