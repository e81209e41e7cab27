import type {
  CellFocusedEvent,
  CellKeyDownEvent,
  GetRowIdParams,
  GridReadyEvent,
  IDatasource,
  IGetRowsParams,
  RowClassParams,
  RowClickedEvent,
  SelectionChangedEvent,
  SortChangedEvent,
} from 'ag-grid-community'
import { AgGridReact } from 'ag-grid-react'
import { useEffect, useMemo, useRef } from 'react'
import { type ReviewRow, reviewQuerySchema } from '../../../../shared/contract/review'
import {
  type AnnotationFilter,
  DEFAULT_SORT,
  type SortSpec,
  sortColumns,
} from '../../../../shared/filter'
import { api } from '../../api'
import { isPrimaryModifier } from '../../lib/keys'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { asOf } from '../ratings/ratingState'
import { copySelection, moveFocus, rateFocused, ratingForKey, selectAllOfQuery } from './actions'
import { columnDefs } from './columns'
import { BLOCK_SIZE, gridTheme } from './gridSetup'
import { BlockCursors } from './paging'
import { NO_SELECTION, type WorkspaceModel, useWorkspace } from './workspaceModel'

/**
 * Whether `review.query` reads ratings "as of" a past moment. Checked on the contract's own schema,
 * so the grid follows the as-of picker as soon as main supports it, and says so until then.
 */
export const gridTakesAsOf = Object.hasOwn(reviewQuerySchema.shape, 'asOf')

function sortFrom(params: IGetRowsParams): SortSpec {
  const first = params.sortModel[0]
  const column = sortColumns.find((c) => c === first?.colId)
  return column && first ? { column, direction: first.sort } : DEFAULT_SORT
}

/**
 * A datasource for one filter: pages come from main (`review.query`), keyset-paged while the
 * user scrolls on, with the exact total as the last row. Answers to an older query are dropped.
 */
function createDatasource(
  model: WorkspaceModel,
  filter: AnnotationFilter,
  cursors: BlockCursors,
  when: number | null,
): IDatasource {
  let sortKey = ''
  const past = gridTakesAsOf && when !== null ? { asOf: when } : {}
  return {
    getRows(params) {
      const sort = sortFrom(params)
      const key = JSON.stringify(sort)
      if (key !== sortKey) {
        // A new sort orders rows differently: old cursors point to the wrong places.
        sortKey = key
        cursors.clear()
      }
      const page = cursors.request(params.startRow, params.endRow)
      api.review
        .query({ filter, sort, page, ...past })
        .then((result) => {
          const stale =
            model.filter.get().history.present !== filter || (gridTakesAsOf && asOf.get() !== when)
          if (stale) return params.failCallback()
          cursors.record(params.startRow, result.rows.length, result.next)
          model.total.set(result.total)
          params.successCallback(result.rows, result.total)
        })
        .catch((e: unknown) => {
          params.failCallback()
          showError('Loading annotations', e)
        })
    },
  }
}

export function ReviewGrid() {
  const model = useWorkspace()
  const filter = useStore(model.filter).history.present
  const selection = useStore(model.selection)
  const { dataVersion } = useStore(projectState)
  const pastMoment = useStore(asOf)
  // Only a grid that can show the past re-queries when the moment changes.
  const when = gridTakesAsOf ? pastMoment : null
  const cursors = useRef(new BlockCursors())
  const columns = useMemo(() => columnDefs(), [])

  // A new filter: a new datasource (the grid drops its cache and starts at the top).
  useEffect(() => {
    const grid = model.grid.get()
    if (!grid) return
    cursors.current = new BlockCursors()
    model.total.set(null)
    model.selection.set(NO_SELECTION)
    grid.deselectAll()
    grid.setGridOption('datasource', createDatasource(model, filter, cursors.current, when))
  }, [model, filter, when])

  // Data changed (import, ratings): reload the blocks in view, keeping the scroll position.
  const firstVersion = useRef(dataVersion)
  useEffect(() => {
    if (dataVersion === firstVersion.current) return
    cursors.current.clear()
    model.grid.get()?.refreshInfiniteCache()
  }, [model, dataVersion])

  function onGridReady(e: GridReadyEvent<ReviewRow>) {
    model.grid.set(e.api)
    const moment = gridTakesAsOf ? asOf.get() : null
    e.api.setGridOption(
      'datasource',
      createDatasource(model, model.filter.get().history.present, cursors.current, moment),
    )
  }

  function onCellFocused(e: CellFocusedEvent<ReviewRow>) {
    if (e.rowIndex === null || e.rowPinned) return
    const node = e.api.getDisplayedRowAtIndex(e.rowIndex)
    if (node?.data) model.focused.set({ row: node.data, index: e.rowIndex })
  }

  function onRowClicked(e: RowClickedEvent<ReviewRow>) {
    const target = e.event?.target
    if (target instanceof Element && target.closest('.ag-selection-checkbox, .cell-link')) return
    if (e.data && e.rowIndex !== null) model.focused.set({ row: e.data, index: e.rowIndex })
    const panel = model.panel.get()
    if (panel.kind !== 'story') model.panel.set({ kind: 'story' })
  }

  function onSelectionChanged(e: SelectionChangedEvent<ReviewRow>) {
    if (e.source === 'api' || e.source === 'apiSelectAll') return
    const rows = new Map<number, ReviewRow>()
    for (const node of e.api.getSelectedNodes()) if (node.data) rows.set(node.data.id, node.data)
    model.selection.set({ mode: 'rows', rows })
  }

  function onSortChanged(e: SortChangedEvent<ReviewRow>) {
    const state = e.api.getColumnState().find((c) => c.sort)
    const column = sortColumns.find((c) => c === state?.colId)
    model.sort.set(column && state?.sort ? { column, direction: state.sort } : DEFAULT_SORT)
  }

  function onCellKeyDown(e: CellKeyDownEvent<ReviewRow>) {
    const event = e.event
    if (!(event instanceof KeyboardEvent)) return
    const handled = handleGridKey(model, event, e.data, e.rowIndex)
    if (handled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }

  const allOfQuery = selection.mode === 'query'

  return (
    <div className={`grid-host ${allOfQuery ? 'select-all-query' : ''}`} data-testid="grid">
      <AgGridReact<ReviewRow>
        theme={gridTheme}
        columnDefs={columns}
        defaultColDef={{
          sortable: true,
          resizable: true,
          suppressHeaderMenuButton: true,
          suppressKeyboardEvent: (p) => ownsKey(p.event),
        }}
        rowModelType="infinite"
        cacheBlockSize={BLOCK_SIZE}
        maxBlocksInCache={50}
        maxConcurrentDatasourceRequests={2}
        blockLoadDebounceMillis={40}
        infiniteInitialRowCount={1}
        getRowId={(p: GetRowIdParams<ReviewRow>) => String(p.data.id)}
        rowSelection={{
          mode: 'multiRow',
          checkboxes: true,
          headerCheckbox: false,
          enableClickSelection: false,
        }}
        selectionColumnDef={{
          width: 36,
          minWidth: 36,
          maxWidth: 36,
          pinned: 'left',
          resizable: false,
        }}
        getRowClass={(p: RowClassParams<ReviewRow>) => (p.data ? undefined : 'row-loading')}
        suppressNoRowsOverlay
        onGridReady={onGridReady}
        onCellFocused={onCellFocused}
        onRowClicked={onRowClicked}
        onSelectionChanged={onSelectionChanged}
        onSortChanged={onSortChanged}
        onCellKeyDown={onCellKeyDown}
        onModelUpdated={() => refreshFocused(model)}
        onGridPreDestroyed={() => {
          model.grid.set(null)
        }}
      />
    </div>
  )
}

/** Once a focused row's block loads (or reloads after a change), the panels get its fresh data. */
function refreshFocused(model: WorkspaceModel): void {
  const grid = model.grid.get()
  const focused = model.focused.get()
  const cell = grid?.getFocusedCell()
  const index = cell?.rowIndex ?? focused?.index
  if (!grid || index === undefined) return
  const data = grid.getDisplayedRowAtIndex(index)?.data
  if (data && data !== focused?.row) model.focused.set({ row: data, index })
}

/** Keys the page handles itself, which the grid must not also act on (it would move twice). */
function ownsKey(e: KeyboardEvent): boolean {
  if (isPrimaryModifier(e)) return ['a', 'c'].includes(e.key.toLowerCase())
  return e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')
}

/** The grid's own keys. Returns whether the key was used. */
function handleGridKey(
  model: WorkspaceModel,
  e: KeyboardEvent,
  row: ReviewRow | undefined,
  index: number | null,
): boolean {
  if (isPrimaryModifier(e)) {
    const key = e.key.toLowerCase()
    if (key === 'c' && !e.shiftKey) {
      void copySelection(model)
      return true
    }
    if (key === 'a') {
      selectAllOfQuery(model)
      return true
    }
    return false
  }
  if (e.altKey) return false
  if (e.key === 'Enter' && row) {
    model.panel.set({ kind: 'story' })
    return true
  }
  if (e.key === 'j' || e.key === 'k') {
    moveFocus(model, e.key === 'j' ? 1 : -1)
    return true
  }
  if (e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp') && index !== null) {
    extendSelection(model, index, e.key === 'ArrowDown' ? 1 : -1)
    return true
  }
  if (e.key === 'w' && row?.workerId) {
    model.panel.set({ kind: 'worker', workerId: row.workerId })
    return true
  }
  if (e.key === 'x' && row) {
    void rateFocused(model, null, false)
    return true
  }
  const rating = ratingForKey(e)
  if (rating !== undefined && row) {
    void rateFocused(model, rating, e.shiftKey)
    return true
  }
  return false
}

/** Shift+↑/↓: select the focused row and the next one, and move on. */
function extendSelection(model: WorkspaceModel, index: number, delta: number): void {
  const grid = model.grid.get()
  if (!grid) return
  grid.getDisplayedRowAtIndex(index)?.setSelected(true, false, 'uiSelectAll')
  grid.getDisplayedRowAtIndex(index + delta)?.setSelected(true, false, 'uiSelectAll')
  moveFocus(model, delta)
}
