import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import type { Db } from '../../src/main/db/connection'
import { queryAnnotations, reviewTuning } from '../../src/main/db/queries/review/query'
import { orderTuning, pageFromOrder, readOrder } from '../../src/main/review/queryOrder'
import { Session } from '../../src/main/session'
import type { ReviewPage } from '../../src/shared/contract/review'
import { type AnnotationFilter, type SortSpec, sortColumns } from '../../src/shared/filter'
import { synthProject } from './fixture'

describe("the current query's order", () => {
  let dir = ''
  let db: Db

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'winnow-test-'))
    db = synthProject(dir, 250, true)
  })
  afterAll(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const filters: AnnotationFilter[] = [
    {},
    { dimensions: [1, 2, 6], from: '2019-09-10' },
    { text: 'the', ratings: [2, 3, 'unrated'] },
    { sentence: 'the' },
  ]

  for (const walk of [false, true]) {
    it(`serves every jump as a read by offset would${walk ? ' (walking the index)' : ''}`, async () => {
      reviewTuning.walkAbove = walk ? 10 : 50_000
      try {
        for (const column of sortColumns) {
          for (const direction of ['asc', 'desc'] as const) {
            const sort: SortSpec = { column, direction }
            for (const filter of filters) {
              const label = JSON.stringify({ filter, sort })
              const total = queryAnnotations(db, { filter, sort, limit: 1 }).total
              expect(await readOrder(db, filter, sort, total), label).toBe(true)
              for (const offset of [1, 37, Math.floor(total / 2), Math.max(1, total - 5)]) {
                const known = pageFromOrder(db, filter, sort, offset, 20)
                const read = queryAnnotations(db, { filter, sort, limit: 20, offset })
                expect(known, `${label} @${offset}`).toEqual(read)
              }
            }
          }
        }
      } finally {
        reviewTuning.walkAbove = 50_000
      }
    })
  }

  it('is read a slice at a time, for one query at a time', async () => {
    const sort: SortSpec = { column: 'submittedAt', direction: 'desc' }
    const total = queryAnnotations(db, { filter: {}, sort, limit: 1 }).total
    const before = orderTuning.sliceMs
    orderTuning.sliceMs = 0
    let pauses = 0
    try {
      expect(await readOrder(db, {}, sort, total, () => Promise.resolve(pauses++))).toBe(true)
    } finally {
      orderTuning.sliceMs = before
    }
    expect(pauses).toBeGreaterThan(0)
    expect(pageFromOrder(db, {}, sort, 10, 10)).toBeDefined()
    // Another query's order replaces it.
    await readOrder(db, { dimensions: [3] }, sort, 1)
    expect(pageFromOrder(db, {}, sort, 10, 10)).toBeUndefined()
    // A query replaced while its order is read gives up.
    let replaced = false
    orderTuning.sliceMs = 0
    try {
      const first = readOrder(db, {}, sort, total, async () => {
        if (!replaced) {
          replaced = true
          await readOrder(db, { dimensions: [4] }, sort, 1)
        }
      })
      expect(await first).toBe(false)
    } finally {
      orderTuning.sliceMs = before
    }
    expect(pageFromOrder(db, {}, sort, 10, 10)).toBeUndefined()
  })
})

describe('review.query in the app', () => {
  let dir = ''
  let session: Session
  let path = ''

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'winnow-test-'))
    synthProject(dir, 250, true).close()
    path = join(dir, 'synth.winnow')
  })
  afterAll(() => {
    session.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('jumps by id once the order is read, and reads again after a rating changes', async () => {
    session = new Session('serve', () => undefined)
    session.open(path)
    const call = async (args: unknown) => {
      const outcome = await dispatch('review.query', args, { session })
      if (!outcome.ok) throw new Error(outcome.error.message)
      return outcome.value as ReviewPage
    }
    const saved = { ...orderTuning }
    Object.assign(orderTuning, { minimumTotal: 10, settleMs: 0 })
    try {
      const sort: SortSpec = { column: 'rating', direction: 'asc' }
      const first = await call({ sort, page: { limit: 10 } })
      expect(first.total).toBeGreaterThan(100)
      // The order is read in the background after the first page.
      const db = session.project().db
      for (let i = 0; i < 200 && !pageFromOrder(db, {}, sort, 50, 10); i++)
        await new Promise((resolve) => setTimeout(resolve, 5))
      expect(pageFromOrder(db, {}, sort, 50, 10)).toBeDefined()
      const jump = await call({ sort, page: { limit: 10, offset: 50 } })
      expect(jump).toEqual(queryAnnotations(db, { filter: {}, sort, limit: 10, offset: 50 }))

      // A rating change moves rows in this sort: the order is dropped, the page is read afresh.
      const moved = jump.rows[0]
      if (!moved) throw new Error('no row to rate')
      const rated = await dispatch(
        'ratings.rateItems',
        { annotationIds: [moved.id], rating: 3 },
        { session },
      )
      expect(rated.ok).toBe(true)
      expect(pageFromOrder(db, {}, sort, 50, 10)).toBeUndefined()
      const after = await call({ sort, page: { limit: 10, offset: 50 } })
      expect(after).toEqual(queryAnnotations(db, { filter: {}, sort, limit: 10, offset: 50 }))
      expect(after.rows.map((r) => r.id)).not.toContain(moved.id)
    } finally {
      Object.assign(orderTuning, saved)
    }
  })
})
