import { cardPlaceholders, describePlaceholders } from '../../shared/release/placeholders'
import type { ReleaseFacts } from './facts'

/**
 * The lines that mark a draft release in its datasheet and card (with the placeholders its card
 * still holds); nothing for a release that is not a draft.
 */
export function draftNotice(facts: Pick<ReleaseFacts, 'options' | 'card'>): string[] {
  if (!facts.options.draft) return []
  const found = cardPlaceholders(facts.card)
  return [
    '**Draft release: not for publication.**' +
      (found.length > 0
        ? ` The dataset card still holds placeholders: ${describePlaceholders(found)}.`
        : ''),
    '',
  ]
}
