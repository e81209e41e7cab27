import type {
  ReleasePart,
  ReleasePreview,
  ReleasePreviewOptions,
  ReleasePreviewPart,
} from '../../shared/contract/release'
import type { Db } from '../db/connection'
import { countReleaseSource, releaseSource, storiesRated } from '../db/queries/release/rows'
import { previewGroups, previewUntiered } from '../db/queries/release/preview'
import { pastAnnotations } from '../ratings/asOf'
import { leftOutReason } from './export'
import { releasedTiers, tierMap } from './settings'
import { drawStorySplit } from './split'

const PART_ORDER: Record<ReleasePart, number> = { all: 0, train: 1, dev: 2, test: 3 }

/**
 * What an export of these options would write, per tier and part (rows, annotations, stories,
 * workers), and what it would leave out and why: the datasheet's counts, before anything is
 * written. The split is drawn as the export draws it, so a held-out part's share shows here.
 */
export function previewRelease(db: Db, options: ReleasePreviewOptions): ReleasePreview {
  const steps = tierMap(db)
  const { lookup, tiers } = releasedTiers(steps, options)
  const source = releaseSource(db, options.filter, pastAnnotations(db, options.asOf))
  const split = options.split
  const candidates = split
    ? storiesRated(
        db,
        source,
        steps.filter((s) => s.tier === split.tier).map((s) => s.rating),
      )
    : []
  const held = split
    ? drawStorySplit(candidates, split)
    : { test: new Set<string>(), dev: new Set<string>() }

  const parts: ReleasePreviewPart[] = []
  const leftOut = new Map<string, number>()
  const leave = (reason: string, n: number): void => {
    leftOut.set(reason, (leftOut.get(reason) ?? 0) + n)
  }
  for (const g of previewGroups(db, source, lookup, held)) {
    // As the export does: held-out stories leave the other tiers, so no story is on two sides.
    if (split && g.held !== null && g.tier !== split.tier) {
      leave(`story held out for ${g.held} (tier ${g.tier})`, g.annotations)
      continue
    }
    const part: ReleasePart = !split ? 'all' : (g.held ?? 'train')
    parts.push({
      tier: g.tier,
      part,
      rows: g.rows,
      annotations: g.annotations,
      stories: g.stories,
      workers: g.workers,
    })
  }
  for (const u of previewUntiered(db, source, lookup)) {
    leave(leftOutReason(u.rating, steps), u.annotations)
  }
  // Every file the export writes has its line, an empty one too.
  for (const tier of tiers) {
    const written: ReleasePart[] = !split
      ? ['all']
      : tier !== split.tier
        ? ['train']
        : split.dev === undefined
          ? ['train', 'test']
          : ['train', 'dev', 'test']
    for (const part of written) {
      if (!parts.some((p) => p.tier === tier && p.part === part)) {
        parts.push({ tier, part, rows: 0, annotations: 0, stories: 0, workers: 0 })
      }
    }
  }

  parts.sort((a, b) => b.tier - a.tier || PART_ORDER[a.part] - PART_ORDER[b.part])
  return {
    parts,
    leftOut: [...leftOut]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([reason, annotations]) => ({ reason, annotations })),
    split: split
      ? {
          tier: split.tier,
          candidates: new Set(candidates).size,
          test: held.test.size,
          dev: held.dev.size,
        }
      : null,
    total: countReleaseSource(db, source),
  }
}
