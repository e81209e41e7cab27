/** The test set joins references, story sentences and worker ids with `****`. */

const REFERENCE_SEPARATOR = '****'

/**
 * Splits a `****`-joined cell, keeping empty items: eight asterisks in a row give an empty
 * reference, which a reviewer should see rather than lose.
 */
export function splitReferences(cell: string): string[] {
  return cell.split(REFERENCE_SEPARATOR)
}

export function joinReferences(items: readonly string[]): string {
  return items.join(REFERENCE_SEPARATOR)
}
