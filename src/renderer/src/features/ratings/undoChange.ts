import { api } from '../../api'
import type { MessageAction } from '../messages/messages'
import { showError, showInfo } from '../messages/messages'
import { describeResult, inTurn, ratingsChanged } from './ratingState'

/**
 * The Undo button of a rating's note: reverts that change set (not whatever came last), in turn
 * with every other rating change the page makes.
 */
export function undoAction(changeSet: number | null, what: string): MessageAction | undefined {
  if (changeSet === null) return undefined
  return {
    label: 'Undo',
    testId: 'toast-undo',
    run: () =>
      void inTurn(async () => {
        try {
          const result = await api.ratings.revert({ changeSetId: changeSet })
          showInfo(`Undid ${what}: ${describeResult(result)}.`)
          ratingsChanged()
        } catch (e) {
          showError('Undo', e)
        }
      }),
  }
}
