/**
 * Lists of any length. Spreading a list into a call (`push(...items)`, `Math.max(...values)`)
 * passes every item as an argument on the stack and overflows it past about 120,000 items; these
 * loop instead. A lint rule points here.
 */

/** How many of `sorted` (ascending) are at most `value`: the index of the first one above it. */
export function countAtMost(sorted: ArrayLike<number>, value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((sorted[mid] as number) <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Adds every item to the end of `target`. */
export function append<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item)
}

/** The largest of `values` and `atLeast` (−Infinity by default, as `Math.max()` gives). */
export function largest(values: Iterable<number>, atLeast = -Infinity): number {
  let most = atLeast
  for (const v of values) most = Math.max(most, v)
  return most
}

/** The smallest of `values` and `atMost` (Infinity by default, as `Math.min()` gives). */
export function smallest(values: Iterable<number>, atMost = Infinity): number {
  let least = atMost
  for (const v of values) least = Math.min(least, v)
  return least
}
