import type { RatingLevel } from '../../../../shared/contract/ratings'
import { api } from '../../api'
import { createProjectStore } from '../../lib/projectScope'
import { showError } from '../messages/messages'

/** The open project's rating scale (values, labels, colours), from project settings. */
export const ratingScale = createProjectStore<readonly RatingLevel[]>([])

export function loadScale(): void {
  api.ratings
    .scale({})
    .then((scale) => ratingScale.set(scale))
    .catch((e: unknown) => showError('Reading the rating scale', e))
}
