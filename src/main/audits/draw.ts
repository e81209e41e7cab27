import type { AnnotationFilter } from '../../shared/filter'
import { sampleKey, smallestKeys } from '../../shared/stats/sampleKey'
import type { Db } from '../db/connection'
import { candidateIds, probeSource, selectedAmong } from '../db/queries/audits'

/**
 * A query of at least this many annotations is drawn by probing (decisions.md, "An audit's draw
 * by probing"); a smaller one by the seeded keys of every match. Tests lower it.
 */
export const probing = { from: 65_536 }

/** Ids looked up in one statement at most. */
const BATCH = 4096

export interface Draw {
  /** The drawn ids, in the seed's order. */
  ids: number[]
  /** Ids looked up by probing (0: the draw read every match). */
  probed: number
}

/**
 * `n` annotations of the query that `held` does not hold, in the seed's order: the same seed over
 * the same data draws the same ids on every machine, and a draw of k + n extends one of k.
 *
 * A large query is drawn by probing: ids uniform over the annotations' id range, by the seed's
 * sequence of keys, each kept when the query selects it; the first matches, duplicates skipped,
 * are a uniform sample without replacement. Probes per match are the id range over the total, so
 * a query too sparse in its range, or one the summary cannot count, is drawn from every match.
 */
export function drawIds(
  db: Db,
  filter: AnnotationFilter,
  seed: number,
  n: number,
  held: ReadonlySet<number>,
): Draw {
  if (n <= 0) return { ids: [], probed: 0 }
  const source = probeSource(db, filter)
  if (source && source.total >= probing.from) {
    const span = source.hi - source.lo + 1
    const density = source.total / span
    // Beyond this many probes the matches left are too few to meet by chance: read them all.
    const limit = Math.ceil(((held.size + n) / density) * 4) + BATCH
    const seen = new Set<number>()
    const ids: number[] = []
    let at = 0
    while (ids.length < n && at < limit) {
      const batch: number[] = []
      const size = Math.min(BATCH, Math.ceil(((n - ids.length) / density) * 1.25) + 16)
      for (let k = 0; k < size && at < limit; k++, at++) {
        const id = source.lo + Math.floor(sampleKey(seed, at) * span)
        if (seen.has(id)) continue
        seen.add(id)
        batch.push(id)
      }
      const selected = selectedAmong(db, filter, batch)
      for (const id of batch) {
        if (ids.length === n) break
        if (selected.has(id) && !held.has(id)) ids.push(id)
      }
    }
    if (ids.length === n) return { ids, probed: seen.size }
  }
  const ids = smallestKeys(candidateIds(db, filter), seed, held.size + n)
    .filter((id) => !held.has(id))
    .slice(0, n)
  return { ids, probed: 0 }
}
