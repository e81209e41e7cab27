/** A proportion with its Wilson score interval. Null figures when nothing was judged. */
export interface Proportion {
  /** Successes over trials. */
  proportion: number | null
  low: number | null
  high: number | null
}

/** z of a two-sided 95 % interval. */
const Z95 = 1.96

/**
 * The Wilson score interval of `successes` out of `trials`: unlike the normal approximation it
 * stays inside [0, 1] and is not empty at 0 or n successes, which small audits meet often.
 */
export function wilson(successes: number, trials: number, z = Z95): Proportion {
  if (!Number.isInteger(trials) || trials < 0)
    throw new RangeError(`trials must be a count, got ${trials}`)
  if (!Number.isInteger(successes) || successes < 0 || successes > trials)
    throw new RangeError(`successes must be a count from 0 to ${trials}, got ${successes}`)
  if (trials === 0) return { proportion: null, low: null, high: null }
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const centre = (p + z2 / (2 * trials)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))
  return {
    proportion: p,
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === trials ? 1 : Math.min(1, centre + half),
  }
}

/** Half the interval's width (the "±" of a report); null when nothing was judged. */
export function margin(p: Proportion): number | null {
  return p.low === null || p.high === null ? null : (p.high - p.low) / 2
}
