import type { ColumnState, GridApi } from 'ag-grid-community'
import type { ReviewRow, SavedView } from '../../../../shared/contract/review'
import type { SortSpec } from '../../../../shared/filter'
import { reviewColumns } from './columns'

type ViewColumns = NonNullable<SavedView['columns']>

const known = new Set<string>(reviewColumns.map((c) => c.id))

/** The layout a view keeps: our columns in their shown order, with hidden flags and widths. */
export function columnsOf(grid: GridApi<ReviewRow>): ViewColumns {
  return grid
    .getColumnState()
    .filter((c) => known.has(c.colId))
    .map((c) => ({
      id: c.colId,
      ...(c.hide ? { hidden: true } : {}),
      ...(typeof c.width === 'number' ? { width: Math.round(c.width) } : {}),
    }))
}

/** Restores a view's columns and sort; columns a view does not mention keep their place at the end. */
export function applyLayout(
  grid: GridApi<ReviewRow>,
  columns: ViewColumns | undefined,
  sort: SortSpec,
): void {
  const state: ColumnState[] = (columns ?? [])
    .filter((c) => known.has(c.id))
    .map((c) => ({
      colId: c.id,
      hide: c.hidden ?? false,
      ...(c.width !== undefined ? { width: c.width } : {}),
    }))
  const withSort = state.map((s) => ({
    ...s,
    sort: s.colId === sort.column ? sort.direction : null,
  }))
  if (!withSort.some((s) => s.colId === sort.column) && sort.column !== 'id') {
    withSort.push({ colId: sort.column, sort: sort.direction })
  }
  grid.applyColumnState({
    state: withSort,
    applyOrder: columns !== undefined && columns.length > 0,
    defaultState: { sort: null },
  })
}
