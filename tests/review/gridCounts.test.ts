import { afterEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { countThread } from '../../src/main/review/gridCounts'
import { Session } from '../../src/main/session'
import type { ReviewPage } from '../../src/shared/contract/review'
import type { AnnotationFilter } from '../../src/shared/filter'
import { useTempDir } from '../helpers/tmp'
import { type Db, all } from '../../src/main/db/connection'
import {
  constraintsOf,
  liveCountStatement,
  plainCountStatement,
} from '../../src/main/db/queries/review/count'
import { type SqlFragment, sql } from '../../src/main/db/sql'
import { plainRows, reference, synthProject } from './fixture'

/**
 * Rows first, totals after: a text filter's first page comes without waiting for its total, the
 * total is counted on the count thread, and a newer grid count replaces an older one.
 */
describe('grid totals counted apart from the rows', () => {
  const tempDir = useTempDir()
  let session: Session | null = null
  afterEach(() => {
    session?.close()
    session = null
    countThread.mode = 'auto'
  })

  function open() {
    const db = synthProject(tempDir(), 600)
    const plain = plainRows(db)
    const path = db.name
    db.close()
    countThread.mode = 'thread'
    const s = new Session('serve', () => undefined)
    s.open(path)
    session = s
    const call = async <T>(name: string, args: unknown): Promise<T> => {
      const outcome = await dispatch(name, args, { session: s })
      if (!outcome.ok) throw new Error(outcome.error.message)
      return outcome.value as T
    }
    return { call, plain }
  }

  it('answers a text filter with its first rows, then its exact total', async () => {
    const { call, plain } = open()
    const filter: AnnotationFilter = { text: 'the' }
    const expected = reference(plain, filter)
    expect(expected.length).toBeGreaterThan(30)
    const page = await call<ReviewPage>('review.query', {
      filter,
      page: { limit: 20 },
      count: 'later',
    })
    expect(page.counting).toBe(true)
    expect(page.rows.map((r) => r.id)).toEqual(expected.slice(0, 20))
    const counted = await call<{ total: number | null }>('review.gridCount', { filter })
    expect(counted.total).toBe(expected.length)
    // Remembered now: the next page comes with the exact total.
    const again = await call<ReviewPage>('review.query', { filter, count: 'later' })
    expect(again.counting).toBeUndefined()
    expect(again.total).toBe(expected.length)
  })

  it('gives filters of the summary’s columns their exact total with the rows', async () => {
    const { call, plain } = open()
    const filter: AnnotationFilter = { dimensions: [1, 6], ratings: [2, 'unrated'] }
    const page = await call<ReviewPage>('review.query', { filter, count: 'later' })
    expect(page.counting).toBeUndefined()
    expect(page.total).toBe(reference(plain, filter).length)
  })

  it('replaces older counts by the newest, whose total is right', async () => {
    const { call, plain } = open()
    const typed = ['h', 'he', 'her', 'her ', 'her f', 'her fr']
    const answers = await Promise.all(
      typed.map((text) =>
        call<{ total: number | null }>('review.gridCount', { filter: { sentence: text } }),
      ),
    )
    // Sent together: every count but the last was replaced before the thread reached it.
    expect(answers.slice(0, -1).map((a) => a.total)).toEqual(typed.slice(0, -1).map(() => null))
    const last = reference(plain, { sentence: typed.at(-1) ?? '' }).length
    expect(last).toBeGreaterThan(0)
    expect(answers.at(-1)?.total).toBe(last)
  })

  // Each test opens its own project, so the count thread is just starting when these are sent.
  it('counts a dialog’s filter on the count thread: a closed dialog’s count answers null', async () => {
    const { call, plain } = open()
    const filter: AnnotationFilter = { sentence: 'her' }
    // The dialog closes (cancel) before the thread answers: nothing comes, not a stale total.
    const closed = call<{ total: number | null }>('review.count', { filter })
    const cancel = await call<{ cancelled: boolean }>('review.cancelCount', {})
    expect(cancel.cancelled).toBe(true)
    expect((await closed).total).toBeNull()
    // Opened again, it counts afresh and right.
    const again = await call<{ total: number | null }>('review.count', { filter })
    expect(again.total).toBe(reference(plain, filter).length)
  })

  it('answers only the newest filter of a dialog whose filter changed while counting', async () => {
    const { call, plain } = open()
    const filter: AnnotationFilter = { sentence: 'her' }
    const older = call<{ total: number | null }>('review.count', { filter: { sentence: 'h' } })
    const newer = call<{ total: number | null }>('review.count', { filter })
    expect((await older).total).toBeNull()
    expect((await newer).total).toBe(reference(plain, filter).length)
  })

  it('keeps a dialog’s count and the grid’s apart: neither cancels the other', async () => {
    const { call, plain } = open()
    const forGrid: AnnotationFilter = { text: 'the' }
    const forDialog: AnnotationFilter = { sentence: 'her f' }
    const [grid, dialog] = await Promise.all([
      call<{ total: number | null }>('review.gridCount', { filter: forGrid }),
      call<{ total: number | null }>('review.count', { filter: forDialog }),
    ])
    expect(grid.total).toBe(reference(plain, forGrid).length)
    expect(dialog.total).toBe(reference(plain, forDialog).length)
  })

  it('counts a text filter with dimensions as a plain recount does, alone or with other fields', async () => {
    const { call, plain } = open()
    const filters: AnnotationFilter[] = [
      { text: 'the', dimensions: [1] },
      { text: 'the', dimensions: [2, 7, 10] },
      { text: '"the day"', dimensions: [6] },
      { text: 'the', dimensions: [1, 6], ratings: [2, 'unrated'] },
      { text: 'zzzz', dimensions: [1] },
    ]
    for (const filter of filters) {
      const counted = await call<{ total: number | null }>('review.gridCount', { filter })
      expect(counted.total, JSON.stringify(filter)).toBe(reference(plain, filter).length)
    }
    expect(reference(plain, filters[1] ?? {}).length).toBeGreaterThan(0)
  })
})

describe('a text filter’s count statement', () => {
  const tempDir = useTempDir()

  /** What a statement reads, from SQLite's own plan (`a` is the annotations' alias). */
  function tablesRead(db: Db, statement: SqlFragment): string {
    const plan = all<{ detail: string }>(db, sql`EXPLAIN QUERY PLAN ${statement}`)
    return plan.map((p) => p.detail).join('\n')
  }

  it('reads only the full-text index when the other fields are dimensions', () => {
    const db = synthProject(tempDir(), 100)
    // The count thread's liveness check, which the live statement calls.
    db.function('winnow_live', { varargs: true }, () => 1)
    try {
      const c = constraintsOf(db, { text: 'the', dimensions: [2, 7] })
      for (const statement of [liveCountStatement(db, c, 1), plainCountStatement(db, c)]) {
        expect(statement).not.toBeNull()
        const plan = tablesRead(db, statement as SqlFragment)
        expect(plan).toMatch(/annotation_search/)
        expect(plan).not.toMatch(/\bannotations\b|\bann_|SEARCH a /)
      }
      // Another field needs the annotation: the hits are joined.
      const rated = constraintsOf(db, { text: 'the', dimensions: [2], ratings: [2] })
      expect(tablesRead(db, plainCountStatement(db, rated) as SqlFragment)).toMatch(/SEARCH a /)
    } finally {
      db.close()
    }
  })
})
