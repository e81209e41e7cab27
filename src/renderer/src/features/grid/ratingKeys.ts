import { showInfo } from '../messages/messages'
import { ratingScale } from '../ratings/scale'
import { formatRating, keyedLevels } from '../ratings/scaleMath'
import { ratingForKey } from './actions'

/** The digit a key event stands for (Shift+digit arrives as its code), if any. */
export function digitOf(e: { code: string }): string | undefined {
  return /^(?:Digit|Numpad)(\d)$/.exec(e.code)?.[1]
}

/** `3 → 3 Top, 2 → 2 Proficient, 4 → 1.5 Fair+ …`: every rating key of the project's scale. */
function ratingKeyMap(): string {
  return keyedLevels(ratingScale.get())
    .map(({ key, level }) => `${key} → ${formatRating(level.value)} ${level.label}`)
    .join(', ')
}

/** Says so when a digit has no rating on this scale (7–9 on GLUCOSE's); whether it said so. */
export function explainUnkeyedDigit(e: { code: string }): boolean {
  const digit = digitOf(e)
  if (digit === undefined || ratingForKey(e) !== undefined) return false
  showInfo(`Key ${digit} has no rating. Keys: ${ratingKeyMap()}.`)
  return true
}

/**
 * Says why a digit rated nothing: it has no rating on this scale, or no row has the keyboard
 * (focus is in a panel, on a toolbar, or the rows are still loading).
 */
export function explainDigit(e: { code: string }): void {
  const digit = digitOf(e)
  if (digit === undefined || explainUnkeyedDigit(e)) return
  showInfo(`Nothing to rate with ${digit}: click a row of the grid first.`)
}
