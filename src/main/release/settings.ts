import { basename } from 'node:path'
import { UserError } from '../../shared/contract/errors'
import {
  DEFAULT_TIER_MAP,
  type ParsedReleaseOptions,
  RELEASE_CARD_SETTING,
  type ReleaseCard,
  type ReleaseSettings,
  TIER_MAP_SETTING,
  type TierStep,
  releaseCardSchema,
  tierMapSchema,
} from '../../shared/contract/release'
import { ratingKey } from '../../shared/ratings/key'
import { changeSetting } from '../changes/settings'
import type { Db } from '../db/connection'
import { readSetting } from '../db/queries/settings'
import { ratingScale } from '../ratings/scale'

/** The project's map from ratings to release tiers (DESIGN.md "Ratings"), highest tier first. */
export function tierMap(db: Db): TierStep[] {
  const parsed = tierMapSchema.safeParse(readSetting(db, TIER_MAP_SETTING))
  const steps = parsed.success ? parsed.data : DEFAULT_TIER_MAP.map((s) => ({ ...s }))
  return steps.sort((a, b) => b.tier - a.tier || b.rating - a.rating)
}

/** What the dataset card says; until the project sets it, a card named after the project file. */
export function releaseCard(db: Db, projectPath: string): ReleaseCard {
  const parsed = releaseCardSchema.safeParse(readSetting(db, RELEASE_CARD_SETTING))
  if (parsed.success) return parsed.data
  const name = basename(projectPath).replace(/\.winnow$/, '')
  return {
    name,
    description: `${name}: crowd annotations released in quality tiers with Winnow.`,
    license: 'cc-by-4.0',
    url: 'https://example.org/datasets/' + encodeURIComponent(name),
    creator: 'unknown',
  }
}

export function releaseSettings(db: Db, projectPath: string): ReleaseSettings {
  return {
    tierMap: tierMap(db),
    card: releaseCard(db, projectPath),
    scale: ratingScale(db).map((l) => l.value),
  }
}

/** Saves the tier map and the card, each that changed as a change set of its own. */
export function saveReleaseSettings(
  db: Db,
  projectPath: string,
  change: { tierMap?: TierStep[] | undefined; card?: ReleaseCard | undefined },
  author: string,
): ReleaseSettings {
  db.transaction(() => {
    const { tierMap, card } = change
    if (tierMap) {
      const steps = tierMap.map((s) => `${ratingKey(s.rating)} → tier ${s.tier}`)
      changeSetting(db, {
        key: TIER_MAP_SETTING,
        value: tierMap,
        author,
        description: `Tier map: ${steps.join(', ') || 'nothing released'}`,
      })
    }
    if (card) {
      changeSetting(db, {
        key: RELEASE_CARD_SETTING,
        value: card,
        author,
        description: `Dataset card: ${card.name}, ${card.license}`,
      })
    }
  }).immediate()
  return releaseSettings(db, projectPath)
}

/** Rating → tier, for the tiers chosen (every tier of the map when none are). */
export function tierLookup(steps: readonly TierStep[], chosen: readonly number[] | undefined) {
  const wanted = chosen && chosen.length > 0 ? new Set(chosen) : null
  const byRating = new Map<number, number>()
  for (const s of steps) if (!wanted || wanted.has(s.tier)) byRating.set(s.rating, s.tier)
  return byRating
}

/**
 * The tiers a release writes (highest first) and rating → tier for them; refuses a tier no rating
 * maps to, and a split drawn from a tier the release leaves out.
 */
export function releasedTiers(
  steps: readonly TierStep[],
  options: Pick<ParsedReleaseOptions, 'tiers' | 'split'>,
): { lookup: Map<number, number>; tiers: number[] } {
  const lookup = tierLookup(steps, options.tiers)
  const mapped = new Set(steps.map((s) => s.tier))
  for (const t of options.tiers ?? []) {
    if (!mapped.has(t)) {
      throw new UserError({
        type: 'invalid-argument',
        code: 'unknown-tier',
        message: `No rating maps to tier ${t} (the tier map has ${[...mapped].join(', ') || 'no tiers'}).`,
        field: 'tiers',
      })
    }
  }
  const tiers = [...new Set(lookup.values())].sort((a, b) => b - a)
  const split = options.split
  if (split && !tiers.includes(split.tier)) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'split-tier-not-released',
      message: `The split draws from tier ${split.tier}, which this release does not include (${tiers.join(', ')}).`,
      field: 'split.tier',
    })
  }
  return { lookup, tiers }
}
