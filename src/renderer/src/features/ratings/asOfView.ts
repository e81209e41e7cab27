import { createProjectStore } from '../../lib/projectScope'
import { asOf } from './ratingState'

/** The change set an "as of" view was opened from (History), while the moment is still its. */
const fromChangeSet = createProjectStore<{ id: number; at: number } | null>(null)

/** Shows ratings as recorded by `at`; from History, as of change set `changeSet`. */
export function viewAsOf(at: number | null, changeSet?: number): void {
  fromChangeSet.set(at !== null && changeSet !== undefined ? { id: changeSet, at } : null)
  asOf.set(at)
}

/** The change set the current "as of" moment belongs to, if it was picked from History. */
export function asOfChangeSet(when: number | null): number | null {
  const picked = fromChangeSet.get()
  return picked && picked.at === when ? picked.id : null
}

/** What "as of" means, said where it is set and where it shows. */
export const AS_OF_MEANING =
  'Ratings as this project had recorded them by that moment (to the second): not commit dates, ' +
  'not submission dates. Anything recorded later, an import’s ratings included, is left out.'
