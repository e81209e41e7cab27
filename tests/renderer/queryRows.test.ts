import { describe, expect, it } from 'vitest'
import type { ReviewPage, ReviewRow } from '../../src/shared/contract/review'
import type { PageRequest } from '../../src/renderer/src/features/grid/paging'
import {
  BlockDropped,
  type FetchPage,
  QueryRows,
  type RowQuery,
} from '../../src/renderer/src/features/grid/queryRows'

const BLOCK = 50
const TOTAL = 1000

/** A result of TOTAL rows (ids 1…TOTAL in order), paged as main pages: by offset or after a cursor. */
const result: ReviewRow[] = Array.from({ length: TOTAL }, (_, i) => ({
  id: i + 1,
  submissionId: i + 1,
  assignmentId: null,
  workerId: 'W',
  storyId: 'S',
  sentenceIndex: 0,
  sentence: '',
  dimension: 1,
  specificNL: '',
  generalNL: '',
  submittedAt: null,
  rating: null,
  ratingSource: 0,
  fileRating: null,
  flags: 0,
  submissionFlags: 0,
}))

function pageOf(page: PageRequest): ReviewPage {
  const from = 'offset' in page ? page.offset : result.findIndex((r) => r.id > page.after.id)
  const rows = from < 0 ? [] : result.slice(from, from + page.limit)
  const last = rows[rows.length - 1]
  return {
    rows,
    total: TOTAL,
    next: rows.length === page.limit && last ? { key: [], id: last.id } : null,
    highlight: [],
  }
}

describe('QueryRows', () => {
  /** Pages answered a task later; every request is logged. */
  function main() {
    const sent: PageRequest[] = []
    const fetchPage: FetchPage = (_query, page) => {
      sent.push(page)
      const answer = pageOf(page)
      return new Promise((resolve) => setTimeout(() => resolve(answer), 1))
    }
    return { sent, fetchPage }
  }

  const query: RowQuery = { filter: {}, sort: { column: 'id', direction: 'asc' }, asOf: null }
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id)

  it('reads blocks that join up with the whole result, by cursor after a known block', async () => {
    const { sent, fetchPage } = main()
    const screen = { first: 0, last: 20 }
    const rows = new QueryRows(query, { blockSize: BLOCK, fetchPage, viewport: () => screen })
    const all = ids(result)
    const read: number[] = []
    for (let start = 0; start < 4 * BLOCK; start += BLOCK) {
      screen.first = start
      screen.last = start + 20
      read.push(...ids(await rows.load(start)))
    }
    expect(read).toEqual(all.slice(0, 4 * BLOCK))
    expect(rows.total).toBe(all.length)
    expect(sent[0]).toEqual({ limit: BLOCK, offset: 0 })
    expect(sent.slice(1).every((p) => 'after' in p)).toBe(true)
  })

  it('reads the blocks on screen first, drops what the grid let go, and reads ahead', async () => {
    const { sent, fetchPage } = main()
    const screen = { first: 400, last: 420 }
    const rows = new QueryRows(query, {
      blockSize: BLOCK,
      fetchPage,
      viewport: () => screen,
      concurrency: 1,
    })
    const far = rows.load(0)
    const dropped = expect(rows.load(200, () => false)).rejects.toBeInstanceOf(BlockDropped)
    const onScreen = rows.load(400)
    await Promise.all([far, onScreen, dropped])
    const starts = sent.map((p) => ('offset' in p ? p.offset : -1))
    // The first request went out at once; then the screen before the far block.
    expect(starts.slice(0, 2)).toEqual([0, 400])
    expect(starts).not.toContain(200)
    // The neighbours of the screen were read ahead.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(rows.loaded(350)).toBeDefined()
    expect(rows.loaded(450)).toBeDefined()
    expect(ids(rows.loaded(450) ?? [])).toEqual(ids(result.slice(450, 500)))
    expect(ids(rows.loaded(350) ?? [])).toEqual(ids(result.slice(350, 400)))
  })

  it('asks for the screen ahead of the grid, and stops when a newer query takes over', async () => {
    const { sent, fetchPage } = main()
    const screen = { first: 300, last: 330 }
    const rows = new QueryRows(query, { blockSize: BLOCK, fetchPage, viewport: () => screen })
    rows.foresee(300, 330)
    expect(sent.map((p) => ('offset' in p ? p.offset : -1))).toEqual([300])
    // The grid asks for the same block: no second request.
    const block = await rows.load(300)
    expect(sent).toHaveLength(1)
    expect(block).toHaveLength(BLOCK)
    rows.close()
    await expect(rows.load(600)).rejects.toBeInstanceOf(BlockDropped)
  })

  it('reads blocks again after the data changed', async () => {
    const { sent, fetchPage } = main()
    const rows = new QueryRows(query, {
      blockSize: BLOCK,
      fetchPage,
      viewport: () => ({ first: 0, last: 20 }),
    })
    await rows.load(0)
    const before = sent.length
    rows.clear()
    expect(rows.loaded(0)).toBeUndefined()
    await rows.load(0)
    expect(sent.length).toBeGreaterThan(before)
  })
})
