import { UserError } from '../../shared/contract/errors'
import type { ParsedReleaseOptions, ReleaseCard } from '../../shared/contract/release'
import { cardPlaceholders, describePlaceholders } from '../../shared/release/placeholders'
import type { Db } from '../db/connection'
import { releaseCard } from './settings'

/** The card a release writes: the project's, with the fields the export was given instead. */
export function cardOfRelease(
  db: Db,
  projectPath: string,
  options: Pick<ParsedReleaseOptions, 'card'>,
): ReleaseCard {
  return { ...releaseCard(db, projectPath), ...options.card }
}

/**
 * Refuses a release that is not a draft while its card holds placeholders (an example.org home
 * page, creator `unknown`): README.md and croissant.json would publish them. Nothing is written.
 */
export function refusePlaceholders(card: ReleaseCard, draft: boolean): void {
  const found = cardPlaceholders(card)
  const first = found[0]
  if (draft || !first) return
  throw new UserError({
    type: 'invalid-argument',
    code: 'card-placeholder',
    message:
      `The dataset card still holds placeholders: ${describePlaceholders(found)}. ` +
      'README.md and croissant.json would publish them; fill them in, or mark the release a draft.',
    field: `card.${first.field}`,
  })
}
