import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { maxWeightAssignment } from '../../../src/shared/protoqa/hungarian'

/** Every one-to-one matching of min(rows, cols) pairs, tried. */
function bruteForce(w: number[][]): number {
  const rows = w.length
  const cols = w[0]?.length ?? 0
  let best = 0
  const usedCols = new Set<number>()
  const walk = (i: number, sum: number, matched: number): void => {
    if (i === rows) {
      if (matched === Math.min(rows, cols)) best = Math.max(best, sum)
      return
    }
    // A row may stay unmatched only when there are more rows than columns.
    if (rows - i - 1 >= Math.min(rows, cols) - matched) walk(i + 1, sum, matched)
    for (let j = 0; j < cols; j++) {
      if (usedCols.has(j)) continue
      usedCols.add(j)
      walk(i + 1, sum + (w[i]?.[j] ?? 0), matched + 1)
      usedCols.delete(j)
    }
  }
  walk(0, 0, 0)
  return best
}

describe('Hungarian assignment', () => {
  it('matches brute force on small random rectangular matrices', () => {
    const matrix = fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }))
      .chain(([r, c]) =>
        fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: c, maxLength: c }), {
          minLength: r,
          maxLength: r,
        }),
      )
    fc.assert(
      fc.property(matrix, (w) => {
        const { columnOfRow, total } = maxWeightAssignment(w)
        expect(total).toBe(bruteForce(w))
        const cols = columnOfRow.filter((c) => c >= 0)
        expect(new Set(cols).size).toBe(cols.length)
        expect(cols.length).toBe(Math.min(w.length, w[0]?.length ?? 0))
        expect(columnOfRow.reduce((s, c, i) => s + (c >= 0 ? (w[i]?.[c] ?? 0) : 0), 0)).toBe(total)
      }),
      { numRuns: 300 },
    )
  })

  it('handles empty matrices', () => {
    expect(maxWeightAssignment([])).toEqual({ columnOfRow: [], total: 0 })
    expect(maxWeightAssignment([[], []])).toEqual({ columnOfRow: [-1, -1], total: 0 })
  })
})
