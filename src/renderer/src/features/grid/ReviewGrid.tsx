import type {
  CellFocusedEvent,
  ColDef,
  ColumnResizedEvent,
  GetRowIdParams,
  GridApi,
  GridOptions,
  GridReadyEvent,
  IsFullWidthRowParams,
  RowClassParams,
  RowClickedEvent,
  RowSelectionOptions,
  SelectionChangedEvent,
  SelectionColumnDef,
  SortChangedEvent,
  SuppressKeyboardEventParams,
} from 'ag-grid-community'
import { AgGridReact } from 'ag-grid-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { type ReviewRow, reviewQuerySchema } from '../../../../shared/contract/review'
import { DEFAULT_SORT, filterKey, sortColumns } from '../../../../shared/filter'
import { api } from '../../api'
import { isPrimaryModifier } from '../../lib/keys'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { asOf } from '../ratings/ratingState'
import { ratingScale } from '../ratings/scale'
import {
  copySelection,
  focusedIndex,
  focusedRow,
  moveFocus,
  rateFocused,
  ratingForKey,
  selectAllOfQuery,
} from './actions'
import { type GridContext, LoadingRow } from './cells'
import { columnDefs } from './columns'
import { GridFeed } from './gridFeed'
import { BLOCK_SIZE, gridTheme } from './gridSetup'
import type { FetchPage, FetchTotal } from './queryRows'
import { RowMenu, type RowMenuAt } from './RowMenu'
import { rowHeightOf, rowLayout } from './rowLayout'
import { NO_SELECTION, type WorkspaceModel, useWorkspace } from './workspaceModel'

/**
 * Whether `review.query` reads ratings "as of" a past moment. Checked on the contract's own schema,
 * so the grid follows the as-of picker as soon as main supports it, and says so until then.
 */
export const gridTakesAsOf = Object.hasOwn(reviewQuerySchema.shape, 'asOf')

const fetchPage: FetchPage = (query, page) =>
  api.review.query({
    filter: query.filter,
    sort: query.sort,
    page,
    count: 'later',
    ...(gridTakesAsOf && query.asOf !== null ? { asOf: query.asOf } : {}),
  })

const fetchTotal: FetchTotal = async (query) =>
  (
    await api.review.gridCount({
      filter: query.filter,
      ...(gridTakesAsOf && query.asOf !== null ? { asOf: query.asOf } : {}),
    })
  ).total

// Grid options that never change: the same objects on every render, so the grid never re-applies them.
const COLUMNS = columnDefs()
const DEFAULT_COLUMN: ColDef<ReviewRow> = {
  sortable: true,
  resizable: true,
  suppressHeaderMenuButton: true,
  suppressKeyboardEvent: (p: SuppressKeyboardEventParams<ReviewRow>) => ownsKey(p.event),
}
const ROW_SELECTION: RowSelectionOptions<ReviewRow> = {
  mode: 'multiRow',
  checkboxes: true,
  headerCheckbox: false,
  enableClickSelection: false,
}
const SELECTION_COLUMN: SelectionColumnDef = {
  width: 36,
  minWidth: 36,
  maxWidth: 36,
  pinned: 'left',
  resizable: false,
}
const rowId = (p: GetRowIdParams<ReviewRow>) => String(p.data.id)
const rowClass = (p: RowClassParams<ReviewRow>) => (p.data ? undefined : 'row-loading')
// A row still loading is drawn as one empty full-width cell, not eleven: drawing it costs little,
// and it is thrown away when its data arrives.
const isLoadingRow = (p: IsFullWidthRowParams<ReviewRow>) => !p.rowNode.data
const GRID_OPTIONS: GridOptions<ReviewRow> = {
  theme: gridTheme,
  columnDefs: COLUMNS,
  defaultColDef: DEFAULT_COLUMN,
  rowModelType: 'infinite',
  rowBuffer: 2,
  cacheBlockSize: BLOCK_SIZE,
  maxBlocksInCache: 50,
  maxConcurrentDatasourceRequests: -1,
  infiniteInitialRowCount: 1,
  getRowId: rowId,
  rowSelection: ROW_SELECTION,
  selectionColumnDef: SELECTION_COLUMN,
  getRowClass: rowClass,
  isFullWidthRow: isLoadingRow,
  fullWidthCellRenderer: LoadingRow,
  suppressNoRowsOverlay: true,
}

function momentOf(): number | null {
  return gridTakesAsOf ? asOf.get() : null
}

/** The grid's feed for one workspace, fed straight from the stores (no render in between). */
function useFeed(model: WorkspaceModel): GridFeed {
  const feed = useMemo(
    () =>
      new GridFeed(fetchPage, fetchTotal, {
        total: (total) => model.total.set(total),
        shown: (query) => model.shown.set(query.filter),
        error: (e) => showError('Loading annotations', e),
      }),
    [model],
  )
  useEffect(() => {
    let filter = model.filter.get().history.present
    let when = momentOf()
    let version = projectState.get().dataVersion
    const onQuery = () => {
      const nextFilter = model.filter.get().history.present
      const nextWhen = momentOf()
      if (nextFilter === filter && nextWhen === when) return
      filter = nextFilter
      when = nextWhen
      // The selection of the old query no longer means anything.
      model.grid.get()?.deselectAll()
      model.selection.set(NO_SELECTION)
      feed.want({ filter, asOf: when })
    }
    const onData = () => {
      const next = projectState.get().dataVersion
      if (next === version) return
      version = next
      feed.refresh()
    }
    const stops = [model.filter.subscribe(onQuery), asOf.subscribe(onQuery)]
    stops.push(projectState.subscribe(onData))
    return () => stops.forEach((stop) => stop())
  }, [model, feed])
  return feed
}

export function ReviewGrid() {
  const model = useWorkspace()
  const allOfQuery = useStore(model.selection).mode === 'query'
  const layout = useStore(rowLayout)
  const [menu, setMenu] = useState<RowMenuAt | null>(null)
  const feed = useFeed(model)
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => (host.current ? feed.watch(host.current) : undefined), [feed])
  const handlers = useMemo(() => gridHandlers(model, feed), [model, feed])
  const context = useMemo((): GridContext => ({ model }), [model])
  // Cells are plain DOM renderers (cells.ts), not React components: they read the rating scale
  // when drawn, so the rating cells are redrawn when it changes. (A new search needs no redraw:
  // the feed sets the query shown and then a new datasource, whose rows are all drawn afresh.)
  useEffect(
    () =>
      ratingScale.subscribe(() =>
        model.grid.get()?.refreshCells({ columns: ['rating'], force: true }),
      ),
    [model],
  )
  useEffect(() => {
    const grid = model.grid.get()
    if (!grid) return
    grid.setGridOption('rowHeight', rowHeightOf(layout))
  }, [model, layout])
  // The filter of the rows on screen, on the host (tests and the browser benchmark read it), set
  // without a render.
  useEffect(() => {
    const mark = () => {
      if (host.current) host.current.dataset.shown = filterKey(model.shown.get())
    }
    mark()
    return model.shown.subscribe(mark)
  }, [model])

  return (
    <div
      ref={host}
      className={`grid-host rows-${layout} ${allOfQuery ? 'select-all-query' : ''}`}
      data-testid="grid"
      onKeyDown={(e) => {
        // Here, while the key is dispatched: the grid's own cellKeyDown event reaches a handler
        // only in a later task, after any keys pressed right behind it (Ctrl+Z after a digit).
        const inRows = e.target instanceof Element && e.target.closest('.ag-row')
        if (inRows && handleGridKey(model, e.nativeEvent)) {
          e.preventDefault()
          e.stopPropagation()
        }
      }}
      onContextMenu={(e) => {
        const row = rowUnder(model, e.target)
        if (!row) return
        e.preventDefault()
        setMenu({ x: e.clientX, y: e.clientY, row })
      }}
    >
      <AgGridReact<ReviewRow> gridOptions={GRID_OPTIONS} context={context} {...handlers} />
      {menu && <RowMenu model={model} at={menu} onClose={() => setMenu(null)} />}
    </div>
  )
}

function gridHandlers(model: WorkspaceModel, feed: GridFeed) {
  const workerWidth = fitWorkerIds()
  return {
    onGridReady(e: GridReadyEvent<ReviewRow>) {
      e.api.setGridOption('rowHeight', rowHeightOf(rowLayout.get()))
      model.grid.set(e.api)
      feed.attach(e.api)
      feed.want({ filter: model.filter.get().history.present, asOf: momentOf() })
    },
    onCellFocused(e: CellFocusedEvent<ReviewRow>) {
      if (e.rowIndex === null || e.rowPinned) return
      const node = e.api.getDisplayedRowAtIndex(e.rowIndex)
      if (node?.data) model.focused.set({ row: node.data, index: e.rowIndex })
    },
    onRowClicked(e: RowClickedEvent<ReviewRow>) {
      const target = e.event?.target
      if (target instanceof Element && target.closest('.ag-selection-checkbox, .cell-link')) return
      if (e.data && e.rowIndex !== null) model.focused.set({ row: e.data, index: e.rowIndex })
      const panel = model.panel.get()
      if (panel.kind !== 'story') model.panel.set({ kind: 'story' })
    },
    onSelectionChanged(e: SelectionChangedEvent<ReviewRow>) {
      if (e.source === 'api' || e.source === 'apiSelectAll') return
      const rows = new Map<number, ReviewRow>()
      for (const node of e.api.getSelectedNodes()) if (node.data) rows.set(node.data.id, node.data)
      model.selection.set({ mode: 'rows', rows })
    },
    onSortChanged(e: SortChangedEvent<ReviewRow>) {
      const state = e.api.getColumnState().find((c) => c.sort)
      const column = sortColumns.find((c) => c === state?.colId)
      model.sort.set(column && state?.sort ? { column, direction: state.sort } : DEFAULT_SORT)
    },
    onModelUpdated() {
      refreshFocused(model)
      const grid = model.grid.get()
      if (grid) workerWidth.fit(grid)
    },
    onColumnResized(e: ColumnResizedEvent<ReviewRow>) {
      if (e.source === 'uiColumnResized' && e.column?.getColId() === 'workerId') workerWidth.stop()
    },
    onGridPreDestroyed() {
      model.grid.set(null)
      feed.attach(null)
    },
  }
}

/**
 * The worker column fits the longest id on screen (MTurk ids are 12–14 characters, the release's
 * are small numbers), until the reviewer sizes it by hand.
 */
function fitWorkerIds() {
  let fitted = 0
  let byHand = false
  return {
    fit(grid: GridApi<ReviewRow>): void {
      if (byHand) return
      let longest = 0
      const last = grid.getLastDisplayedRowIndex()
      for (let i = Math.max(0, grid.getFirstDisplayedRowIndex()); i <= last; i++) {
        longest = Math.max(longest, grid.getDisplayedRowAtIndex(i)?.data?.workerId?.length ?? 0)
      }
      if (longest === 0 || longest === fitted) return
      fitted = longest
      // Measured once the cells are drawn.
      requestAnimationFrame(() => grid.isDestroyed() || grid.autoSizeColumns(['workerId']))
    },
    stop(): void {
      byHand = true
    },
  }
}

/**
 * The row a right-click landed on, made the row the menu acts on: focused, and, when it is not
 * part of the selection, the only one selected (as a file list does).
 */
function rowUnder(model: WorkspaceModel, target: EventTarget): ReviewRow | null {
  const grid = model.grid.get()
  const element = target instanceof Element ? target.closest('.ag-row') : null
  const index = Number(element?.getAttribute('row-index'))
  if (!grid || !element || !Number.isInteger(index)) return null
  const node = grid.getDisplayedRowAtIndex(index)
  if (!node?.data) return null
  const column =
    target instanceof Element ? target.closest('.ag-cell')?.getAttribute('col-id') : null
  grid.setFocusedCell(index, column ?? 'specificNL')
  model.focused.set({ row: node.data, index })
  if (!node.isSelected() && model.selection.get().mode === 'rows') {
    grid.deselectAll()
    model.selection.set(NO_SELECTION)
  }
  return node.data
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
function handleGridKey(model: WorkspaceModel, e: KeyboardEvent): boolean {
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
  if (e.key === 'j' || e.key === 'k') {
    moveFocus(model, e.key === 'j' ? 1 : -1)
    return true
  }
  if (e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
    extendSelection(model, e.key === 'ArrowDown' ? 1 : -1)
    return true
  }
  const row = focusedRow(model)?.row
  if (!row) return false
  if (e.key === 'Enter') {
    model.panel.set({ kind: 'story' })
    return true
  }
  if (e.key === 'w' && row.workerId) {
    model.panel.set({ kind: 'worker', workerId: row.workerId })
    return true
  }
  if (e.key === 'x') {
    void rateFocused(model, null, false)
    return true
  }
  const rating = ratingForKey(e)
  if (rating !== undefined) {
    void rateFocused(model, rating, e.shiftKey)
    return true
  }
  return false
}

/**
 * Shift+↑/↓ moves the end of a run of selected rows, as in a file list: away from where the run
 * began it selects the focused row and the next one, back into the run it unselects the row it
 * leaves.
 */
function extendSelection(model: WorkspaceModel, delta: number): void {
  const grid = model.grid.get()
  const at = focusedIndex(model)
  if (!grid || at === null) return
  const here = grid.getDisplayedRowAtIndex(at)
  const next = grid.getDisplayedRowAtIndex(at + delta)
  if (here?.isSelected() && next?.isSelected()) here.setSelected(false, false, 'uiSelectAll')
  else {
    here?.setSelected(true, false, 'uiSelectAll')
    next?.setSelected(true, false, 'uiSelectAll')
  }
  moveFocus(model, delta)
}
