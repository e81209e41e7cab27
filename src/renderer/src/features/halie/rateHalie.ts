import { api } from '../../api'
import { showError, showInfo } from '../messages/messages'
import { inTurn, ratingsChanged } from '../ratings/ratingState'
import { keyedLevels, ratingText, type ScaleLevel } from '../ratings/scaleMath'

/** What a HALIE rating names: sessions, or event blocks (table rows) of one session. */
export type HalieTarget = { kind: 'sessions' | 'blocks'; ids: number[] }

/**
 * Rates sessions or blocks in turn with every other rating change of the page (so Ctrl+Z right
 * after waits for it), then re-reads what shows ratings. Resolves whether it was written.
 */
export async function rateHalie(
  target: HalieTarget,
  value: number | null,
  scale: readonly ScaleLevel[],
): Promise<boolean> {
  try {
    const call = target.kind === 'sessions' ? api.halie.rateSessions : api.halie.rateBlocks
    const result = await inTurn(() => call({ ids: target.ids, rating: value }))
    const what = target.kind === 'sessions' ? 'session' : 'event block'
    showInfo(
      `${value === null ? 'Cleared the rating of' : `Rated ${ratingText(value, scale)}:`} ${result.rated} ${what}${result.rated === 1 ? '' : 's'}.`,
    )
    ratingsChanged()
    return true
  } catch (e) {
    showError('Rating', e)
    return false
  }
}

/** The scale value a digit key rates with (the review grid's key map), if any. */
export function ratingOfKey(scale: readonly ScaleLevel[], key: string): number | undefined {
  return keyedLevels(scale).find((k) => k.key === key)?.level.value
}
