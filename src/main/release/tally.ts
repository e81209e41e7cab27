import type { ReleasePart } from '../../shared/contract/release'
import type { ReleaseRecord } from './record'

/** Counts of one tier and part: what the datasheet states about it. */
export interface PartTally {
  tier: number
  part: ReleasePart
  submissions: number
  annotations: number
  /** Annotations by dimension, index 1…10. */
  byDimension: number[]
  workers: Set<string>
  stories: Set<string>
}

/** What an export counted while it wrote: kept rows per tier and part, and what it left out. */
export class ReleaseTally {
  readonly parts = new Map<string, PartTally>()
  /** Annotations by effective rating (`unrated` for none), before the tier map. */
  readonly byRating = new Map<string, number>()
  /** Annotations left out, by reason. */
  readonly leftOut = new Map<string, number>()

  part(tier: number, part: ReleasePart): PartTally {
    const key = `${tier}|${part}`
    let tally = this.parts.get(key)
    if (!tally) {
      tally = {
        tier,
        part,
        submissions: 0,
        annotations: 0,
        byDimension: new Array<number>(11).fill(0),
        workers: new Set(),
        stories: new Set(),
      }
      this.parts.set(key, tally)
    }
    return tally
  }

  kept(record: ReleaseRecord, part: ReleasePart): void {
    const t = this.part(record.tier, part)
    t.submissions++
    t.annotations += record.filled
    for (let d = 1; d <= 10; d++)
      if (record.dimensions[d]) t.byDimension[d] = (t.byDimension[d] ?? 0) + 1
    t.workers.add(record.workerId)
    t.stories.add(record.storyId)
  }

  rated(rating: string): void {
    this.byRating.set(rating, (this.byRating.get(rating) ?? 0) + 1)
  }

  left(reason: string, n = 1): void {
    this.leftOut.set(reason, (this.leftOut.get(reason) ?? 0) + n)
  }

  /** Tallies in a fixed order: highest tier first, then train, dev, test (or all). */
  sorted(): PartTally[] {
    const order: Record<ReleasePart, number> = { all: 0, train: 1, dev: 2, test: 3 }
    return [...this.parts.values()].sort((a, b) => b.tier - a.tier || order[a.part] - order[b.part])
  }

  /** Workers with kept work in a tier (any part). */
  workersOfTier(tier: number): number {
    const workers = new Set<string>()
    for (const t of this.parts.values())
      if (t.tier === tier) for (const w of t.workers) workers.add(w)
    return workers.size
  }
}
