/**
 * The rows of one query (filter, sort, moment) as the grid reads them: blocks fetched from main,
 * kept, and loaded nearest the screen first: the blocks on screen (asked for by the grid, or seen
 * coming from the scroll position before the grid draws), then the ones around it. Blocks the grid
 * has dropped, and read-aheads the screen has left behind, are not fetched. Pure apart from the injected fetch; tested in tests/renderer.
 */
import type { ReviewPage, ReviewRow } from '../../../../shared/contract/review'
import type { AnnotationFilter, SortSpec } from '../../../../shared/filter'
import { BlockCursors, type PageRequest } from './paging'

export interface RowQuery {
  filter: AnnotationFilter
  sort: SortSpec
  /** Epoch ms: ratings as they stood then; null for now. */
  asOf: number | null
}

export type FetchPage = (query: RowQuery, page: PageRequest) => Promise<ReviewPage>

/** The exact total of a query; null when a newer count replaced it. */
export type FetchTotal = (query: RowQuery) => Promise<number | null>

/** The rows the grid shows now, first and last index; null before it has drawn any. */
type Viewport = () => { first: number; last: number } | null

/** A block was not loaded because nobody needs it any more (a newer query, a dropped block). */
export class BlockDropped extends Error {
  constructor() {
    super('block no longer needed')
  }
}

interface Pending {
  start: number
  /** Asked for by the grid (else a prefetch). */
  wanted: boolean
  /** Whether the grid still holds this block (a dropped block need not be read). */
  stillNeeded: () => boolean
  /** The `clear` generation it was asked in. */
  generation: number
  settle: Array<{ resolve: (rows: ReviewRow[]) => void; reject: (e: unknown) => void }>
}

export interface QueryRowsOptions {
  blockSize: number
  fetchPage: FetchPage
  viewport: Viewport
  /** Requests in flight at most (main answers one at a time; two keep it busy). */
  concurrency?: number
  /** Blocks kept at most; the farthest from the screen go first. */
  keepBlocks?: number
}

export class QueryRows {
  private readonly blocks = new Map<number, ReviewRow[]>()
  private readonly cursors = new BlockCursors()
  private readonly queue = new Map<number, Pending>()
  private readonly sending = new Map<number, Pending>()
  private closed = false
  /** Bumped by `clear`: answers to requests sent before it are not kept. */
  private generation = 0
  /** Exact total, from the latest answer or the count; null before either. */
  total: number | null = null

  constructor(
    readonly query: RowQuery,
    private readonly options: QueryRowsOptions,
    first?: ReviewPage,
  ) {
    if (first) this.keep(0, first)
  }

  private get blockSize(): number {
    return this.options.blockSize
  }

  /** The rows of the block starting at `start`, when loaded. */
  loaded(start: number): ReviewRow[] | undefined {
    return this.blocks.get(start)
  }

  /**
   * The block starting at `start`, which the grid wants. `stillNeeded` says whether the grid
   * still holds that block when its turn comes.
   */
  load(start: number, stillNeeded: () => boolean = () => true): Promise<ReviewRow[]> {
    const rows = this.blocks.get(start)
    if (rows) return Promise.resolve(rows)
    if (this.closed) return Promise.reject(new BlockDropped())
    return new Promise((resolve, reject) => {
      const sent = this.sending.get(start)
      const pending = sent?.generation === this.generation ? sent : this.queue.get(start)
      if (pending) {
        pending.wanted = true
        pending.stillNeeded = stillNeeded
        pending.settle.push({ resolve, reject })
      } else {
        this.queue.set(start, {
          start,
          wanted: true,
          stillNeeded,
          generation: this.generation,
          settle: [{ resolve, reject }],
        })
      }
      this.pump()
    })
  }

  /** The rows now on screen (from the scroll position, ahead of the grid): read their blocks first. */
  foresee(first: number, last: number): void {
    if (this.closed) return
    const end = this.total === null ? last : Math.min(last, this.total - 1)
    for (let s = first - (first % this.blockSize); s <= end; s += this.blockSize) this.readAhead(s)
    this.pump()
  }

  /** Forgets every block and cursor (the data changed); what the grid asks next is read again. */
  clear(): void {
    this.generation++
    this.blocks.clear()
    this.cursors.clear()
    for (const pending of this.queue.values()) {
      if (pending.wanted) pending.generation = this.generation
      else this.queue.delete(pending.start)
    }
  }

  /** A newer query took over: nothing more is fetched, waiting loads are dropped. */
  close(): void {
    this.closed = true
    for (const pending of this.queue.values()) this.drop(pending)
    this.queue.clear()
  }

  private keep(start: number, page: ReviewPage): void {
    this.blocks.set(start, page.rows)
    this.cursors.record(start, page.rows.length, page.next)
    // A page still counting knows only a lower bound; an exact total once known stays.
    if (!page.counting) this.total = page.total
    const keepBlocks = this.options.keepBlocks ?? 60
    if (this.blocks.size > keepBlocks) {
      const screen = this.options.viewport()
      const at = screen ? screen.first : start
      let farthest = start
      for (const s of this.blocks.keys())
        if (Math.abs(s - at) > Math.abs(farthest - at)) farthest = s
      this.blocks.delete(farthest)
    }
  }

  private drop(pending: Pending): void {
    for (const s of pending.settle) s.reject(new BlockDropped())
  }

  /** How far a block is from the rows on screen (0: on screen). */
  private distance(start: number): number {
    const screen = this.options.viewport()
    if (!screen) return start
    const end = start + this.blockSize - 1
    if (end < screen.first) return screen.first - end
    if (start > screen.last) return start - screen.last
    return 0
  }

  /** The next block to read: wanted before prefetched, nearest the screen first. */
  private next(): Pending | undefined {
    let best: Pending | undefined
    let bestScore = Infinity
    for (const pending of [...this.queue.values()]) {
      const distance = this.distance(pending.start)
      const gone = pending.wanted
        ? !pending.stillNeeded()
        : distance > 2 * this.blockSize || this.blocks.has(pending.start)
      if (gone) {
        this.queue.delete(pending.start)
        this.drop(pending)
        continue
      }
      const score = 2 * distance + (pending.wanted ? 0 : 1)
      if (score < bestScore) {
        best = pending
        bestScore = score
      }
    }
    return best
  }

  private pump(): void {
    const concurrency = this.options.concurrency ?? 2
    while (!this.closed && this.sending.size < concurrency) {
      const pending = this.next()
      if (!pending) return
      this.queue.delete(pending.start)
      this.send(pending)
    }
  }

  private send(pending: Pending): void {
    const { start, generation } = pending
    this.sending.set(start, pending)
    const request = this.cursors.request(start, start + this.blockSize)
    this.options
      .fetchPage(this.query, request)
      .then(
        (page) => {
          if (generation === this.generation && !this.closed) this.keep(start, page)
          if (this.closed) return this.drop(pending)
          for (const s of pending.settle) s.resolve(page.rows)
          if (pending.wanted) this.prefetchAround(start)
        },
        (error: unknown) => {
          for (const s of pending.settle) s.reject(error)
        },
      )
      .finally(() => {
        if (this.sending.get(start) === pending) this.sending.delete(start)
        this.pump()
      })
  }

  /** Queues the blocks either side of one the grid wanted, to be read when nothing nearer waits. */
  private prefetchAround(start: number): void {
    this.readAhead(start + this.blockSize)
    this.readAhead(start - this.blockSize)
  }

  private readAhead(start: number): void {
    const inRange = start >= 0 && (this.total === null || start < this.total)
    if (!inRange || this.blocks.has(start) || this.queue.has(start)) return
    if (this.sending.get(start)?.generation === this.generation) return
    this.queue.set(start, {
      start,
      wanted: false,
      stillNeeded: () => true,
      generation: this.generation,
      settle: [],
    })
  }
}
