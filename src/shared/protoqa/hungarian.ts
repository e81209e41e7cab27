/**
 * Maximum-weight one-to-one assignment of rows to columns of a rectangular matrix (the
 * Hungarian method, O(n²m)), as `scipy.optimize.linear_sum_assignment(maximize=True)` gives it:
 * min(rows, cols) pairs whose weights sum to the largest total.
 */
export interface Assignment {
  /** For each row, the column it is matched with, or -1. */
  columnOfRow: number[]
  total: number
}

export function maxWeightAssignment(weights: readonly (readonly number[])[]): Assignment {
  const rows = weights.length
  const cols = rows === 0 ? 0 : (weights[0]?.length ?? 0)
  const columnOfRow = new Array<number>(rows).fill(-1)
  if (rows === 0 || cols === 0) return { columnOfRow, total: 0 }
  // The method below needs no more rows than columns: solve the transpose otherwise.
  const transpose = rows > cols
  const n = transpose ? cols : rows
  const m = transpose ? rows : cols
  const w = (i: number, j: number): number =>
    transpose ? (weights[j]?.[i] ?? 0) : (weights[i]?.[j] ?? 0)
  // Costs are negated weights; potentials u (rows) and v (columns), 1-based with a dummy 0.
  const u = new Float64Array(n + 1)
  const v = new Float64Array(m + 1)
  const rowOfCol = new Int32Array(m + 1)
  const way = new Int32Array(m + 1)
  const minv = new Float64Array(m + 1)
  const used = new Uint8Array(m + 1)
  for (let i = 1; i <= n; i++) {
    rowOfCol[0] = i
    let j0 = 0
    minv.fill(Infinity)
    used.fill(0)
    do {
      used[j0] = 1
      const i0 = rowOfCol[j0] ?? 0
      let delta = Infinity
      let j1 = 0
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue
        const cur = -w(i0 - 1, j - 1) - (u[i0] ?? 0) - (v[j] ?? 0)
        if (cur < (minv[j] ?? Infinity)) {
          minv[j] = cur
          way[j] = j0
        }
        if ((minv[j] ?? Infinity) < delta) {
          delta = minv[j] ?? Infinity
          j1 = j
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          const r = rowOfCol[j] ?? 0
          u[r] = (u[r] ?? 0) + delta
          v[j] = (v[j] ?? 0) - delta
        } else {
          minv[j] = (minv[j] ?? 0) - delta
        }
      }
      j0 = j1
    } while (rowOfCol[j0] !== 0)
    do {
      const j1 = way[j0] ?? 0
      rowOfCol[j0] = rowOfCol[j1] ?? 0
      j0 = j1
    } while (j0 !== 0)
  }
  let total = 0
  for (let j = 1; j <= m; j++) {
    const r = rowOfCol[j] ?? 0
    if (r === 0) continue
    const row = transpose ? j - 1 : r - 1
    const col = transpose ? r - 1 : j - 1
    columnOfRow[row] = col
    total += weights[row]?.[col] ?? 0
  }
  return { columnOfRow, total }
}
