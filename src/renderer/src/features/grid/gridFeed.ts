/**
 * Keeps the grid on the workspace's query. A new filter (or moment) sends its first block at once,
 * one request at a time with the latest query winning: while one is on its way, newer edits only
 * replace what is sent next, and an answer for a query that is no longer wanted is dropped. The
 * old rows stay until the new first block arrives; then the grid gets a datasource that already
 * holds that block. A block without its exact total (a text filter still counting) is shown at
 * once, the total reads "Counting…", and the count asked apart fills it in when it is still the
 * query's; a newer count replaces it in main. A sentence too short for the trigram index (a read
 * of every sentence, which main cannot stop once begun) is sent only once typing pauses: the keys
 * that follow would otherwise wait behind it.
 */
import type { GridApi, IDatasource, IGetRowsParams } from 'ag-grid-community'
import type { ReviewPage, ReviewRow } from '../../../../shared/contract/review'
import {
  DEFAULT_SORT,
  type SortSpec,
  filterKey,
  sentenceScanned,
  sortColumns,
} from '../../../../shared/filter'
import { BLOCK_SIZE, ROW_HEIGHT } from './gridSetup'
import {
  BlockDropped,
  type FetchPage,
  type FetchTotal,
  QueryRows,
  type RowQuery,
} from './queryRows'

/** A pause in typing this long sends a query held back for reading every sentence. */
const SCAN_PAUSE_MS = 150

export interface FeedTarget {
  /** The query's exact total (null: a new query is on its way). */
  total(total: number | null): void
  /** The rows on screen now belong to `query` (its text filters are what cells highlight). */
  shown(query: RowQuery): void
  error(e: unknown): void
}

function sameQuery(a: RowQuery, b: RowQuery): boolean {
  return (
    filterKey(a.filter) === filterKey(b.filter) &&
    a.sort.column === b.sort.column &&
    a.sort.direction === b.sort.direction &&
    a.asOf === b.asOf
  )
}

/** The sort the grid's column headers show. */
function gridSort(grid: GridApi<ReviewRow>): SortSpec {
  const state = grid.getColumnState().find((c) => c.sort)
  const column = sortColumns.find((c) => c === state?.colId)
  return column && state?.sort ? { column, direction: state.sort } : DEFAULT_SORT
}

function sortOf(params: IGetRowsParams): SortSpec {
  const first = params.sortModel[0]
  const column = sortColumns.find((c) => c === first?.colId)
  return column && first ? { column, direction: first.sort } : DEFAULT_SORT
}

/** The grid's scroller: where its rows are, from the scroll position alone. */
interface Scroller {
  element: Element
  rowHeight: number
}

export class GridFeed {
  private grid: GridApi<ReviewRow> | null = null
  private scroller: Scroller | null = null
  /** The rows the grid's datasource reads. */
  private rows: QueryRows | null = null
  /** The query whose first block is on its way, and the one to send after it. */
  private inFlight: RowQuery | null = null
  private wanted: RowQuery | null = null
  /** The query last asked for (what the grid should end up showing). */
  private latest: RowQuery | null = null
  private scheduled = false
  /** Holds back a query that reads every sentence while the keys keep coming. */
  private held: ReturnType<typeof setTimeout> | null = null

  /** Rows whose total has been asked for. */
  private counted = new WeakSet<QueryRows>()

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly fetchTotal: FetchTotal,
    private readonly target: FeedTarget,
  ) {}

  /** Connects the grid; null disconnects. */
  attach(grid: GridApi<ReviewRow> | null): void {
    this.grid = grid
    this.scroller = null
    if (!grid) {
      this.rows?.close()
      this.rows = null
    }
  }

  /**
   * Follows scrolling inside `host` (the element around the grid). Scroll events are caught on the
   * way down (capture), so the blocks a scroll reveals are asked for before the grid draws.
   * Returns the function that stops it.
   */
  watch(host: Element): () => void {
    host.addEventListener('scroll', this.onScroll, { capture: true, passive: true })
    return () => host.removeEventListener('scroll', this.onScroll, true)
  }

  private readonly onScroll = (e: Event): void => {
    const element = e.target
    if (!(element instanceof Element) || element.scrollHeight <= element.clientHeight + 1) return
    this.scroller = { element, rowHeight: this.grid?.getGridOption('rowHeight') ?? ROW_HEIGHT }
    const screen = this.screen()
    if (screen) this.rows?.foresee(screen.first, screen.last)
  }

  /**
   * The rows on screen now, from the scroll position (the grid draws a frame later). Very tall
   * grids are scaled to fit the browser's limit: a position maps to rows by its share of the way.
   */
  private screen(): { first: number; last: number } | null {
    const total = this.rows?.total
    if (!this.scroller || total === null || total === undefined) return this.drawn()
    const { element, rowHeight } = this.scroller
    const room = element.scrollHeight - element.clientHeight
    const share = room > 0 ? Math.min(1, Math.max(0, element.scrollTop / room)) : 0
    const top = share * Math.max(0, total * rowHeight - element.clientHeight)
    const first = Math.floor(top / rowHeight)
    const last = Math.min(total - 1, Math.ceil((top + element.clientHeight) / rowHeight))
    return { first, last }
  }

  /** The rows the grid has drawn, before any scroll was seen. */
  private drawn(): { first: number; last: number } | null {
    const grid = this.grid
    if (!grid) return null
    const first = grid.getFirstDisplayedRowIndex()
    const last = grid.getLastDisplayedRowIndex()
    return first >= 0 && last >= first ? { first, last } : null
  }

  /**
   * Shows the rows of `filter` at `asOf`, in the grid's current sort. Sent after the current task's
   * synchronous changes (a view sets filter and sort together), then at once.
   */
  want(query: Omit<RowQuery, 'sort'>): void {
    this.latest = { ...query, sort: DEFAULT_SORT }
    this.target.total(null)
    if (this.scheduled) return
    this.scheduled = true
    queueMicrotask(() => {
      this.scheduled = false
      const latest = this.latest
      if (!latest) return
      const sort = this.grid ? gridSort(this.grid) : DEFAULT_SORT
      this.latest = { ...latest, sort }
      this.wanted = this.latest
      if (this.held) clearTimeout(this.held)
      this.held = null
      if (sentenceScanned(latest.filter)) {
        this.held = setTimeout(() => {
          this.held = null
          if (!this.inFlight) this.sendNext()
        }, SCAN_PAUSE_MS)
        return
      }
      if (!this.inFlight) this.sendNext()
    })
  }

  /** The data changed under the rows (import, ratings): re-read what is on screen, in place. */
  refresh(): void {
    if (this.inFlight && this.latest) this.wanted = this.latest
    if (!this.rows || !this.grid) return
    this.rows.clear()
    // The total may have moved too: counted again, shown as counting until then.
    if (this.rows.total !== null) {
      this.rows.total = null
      this.counted.delete(this.rows)
    }
    this.grid.refreshInfiniteCache()
  }

  /** Asks once for the exact total of `rows`, and shows it if they are still on screen. */
  private countTotal(rows: QueryRows): void {
    if (rows.total !== null || this.counted.has(rows)) return
    this.counted.add(rows)
    this.target.total(null)
    this.fetchTotal(rows.query).then(
      (total) => {
        const now = this.rows
        if (total === null || !now || now !== rows || now.total !== null) return
        now.total = total
        this.target.total(total)
        this.grid?.setRowCount(total, true)
      },
      (e: unknown) => {
        if (this.rows === rows) this.target.error(e)
      },
    )
  }

  private sendNext(): void {
    const query = this.wanted
    if (!query || this.held) return
    this.wanted = null
    this.inFlight = query
    this.fetchPage(query, { limit: BLOCK_SIZE, offset: 0 })
      .then(
        (page) => {
          // Drawn a task later, so a keystroke already waiting runs first and can drop this answer.
          setTimeout(() => {
            if (this.latest && sameQuery(query, this.latest)) this.install(query, page)
          }, 0)
        },
        (e: unknown) => {
          if (this.latest && sameQuery(query, this.latest)) this.target.error(e)
        },
      )
      .finally(() => {
        this.inFlight = null
        this.sendNext()
      })
  }

  private newRows(query: RowQuery, first?: ReviewPage): QueryRows {
    return new QueryRows(
      query,
      {
        blockSize: BLOCK_SIZE,
        fetchPage: this.fetchPage,
        viewport: () => this.screen(),
      },
      first,
    )
  }

  private install(query: RowQuery, first: ReviewPage): void {
    const grid = this.grid
    if (!grid) return
    this.rows?.close()
    const rows = this.newRows(query, first)
    this.rows = rows
    if (rows.total !== null) this.target.total(rows.total)
    else this.countTotal(rows)
    this.target.shown(query)
    grid.setGridOption('datasource', this.datasource(query))
  }

  /**
   * What the grid reads for one query. A sort picked in the grid starts new rows of the same
   * filter; a block already loaded is answered at once.
   */
  private datasource(query: RowQuery): IDatasource {
    return {
      getRows: (params) => {
        const latest = this.latest
        // A newer query is on its way: it will replace this datasource.
        const replaced =
          latest &&
          (filterKey(latest.filter) !== filterKey(query.filter) || latest.asOf !== query.asOf)
        if (replaced) return params.failCallback()
        const sort = sortOf(params)
        let rows = this.rows
        if (!rows || !sameQuery(rows.query, { ...query, sort })) {
          rows?.close()
          rows = this.newRows({ ...query, sort })
          this.rows = rows
          this.latest = rows.query
        }
        const ready = rows.loaded(params.startRow)
        if (ready) return this.answer(params, rows, ready)
        const block = params.startRow / BLOCK_SIZE
        const stillNeeded = () => this.rows === rows && this.gridHolds(block)
        rows.load(params.startRow, stillNeeded).then(
          (loaded) => {
            if (this.rows === rows) this.answer(params, rows, loaded)
            else params.failCallback()
          },
          (e: unknown) => {
            params.failCallback()
            if (!(e instanceof BlockDropped)) this.target.error(e)
          },
        )
      },
    }
  }

  /** Whether the grid still keeps block `block` (it drops blocks far from the screen). */
  private gridHolds(block: number): boolean {
    const states = this.grid?.getCacheBlockState() as Record<string, unknown> | undefined
    return states?.[String(block)] !== undefined
  }

  private answer(params: IGetRowsParams, rows: QueryRows, block: ReviewRow[]): void {
    if (rows.total !== null) {
      this.target.total(rows.total)
      params.successCallback(block, rows.total)
      return
    }
    // Still counting: the grid learns the end only from a short block (-1: more may follow).
    const short = block.length < params.endRow - params.startRow
    params.successCallback(block, short ? params.startRow + block.length : -1)
    this.countTotal(rows)
  }
}
