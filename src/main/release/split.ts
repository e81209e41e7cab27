import { createHash } from 'node:crypto'
import type { ReleaseSplit } from '../../shared/contract/release'

/** Which part of a split each held-out story is in; stories not listed are in `train`. */
export interface StorySplit {
  test: Set<string>
  dev: Set<string>
}

/** A part's size in stories: an integer is a count, a fraction below 1 a share (rounded, at least 1). */
function storyCount(size: number, available: number): number {
  const n = size < 1 ? Math.max(1, Math.round(size * available)) : Math.floor(size)
  return Math.min(n, available)
}

/**
 * Draws the held-out stories: the candidates (stories with work in the split's tier) in the
 * order of SHA-256(seed, story id), the first for test, the next for dev. The order depends only
 * on the seed and the story ids, not on import order, so the same seed gives the same split.
 */
export function drawStorySplit(candidates: readonly string[], split: ReleaseSplit): StorySplit {
  const ranked = [...new Set(candidates)]
    .map((id) => ({
      id,
      key: createHash('sha256').update(`${split.seed}\u0000${id}`).digest('hex'),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1))
    .map((r) => r.id)
  const testCount = storyCount(split.test, ranked.length)
  const devCount = split.dev === undefined ? 0 : storyCount(split.dev, ranked.length - testCount)
  return {
    test: new Set(ranked.slice(0, testCount)),
    dev: new Set(ranked.slice(testCount, testCount + devCount)),
  }
}
