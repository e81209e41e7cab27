import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { runCli } from '../../src/main/cli/index'
import { Session } from '../../src/main/session'
import type { ReviewPage } from '../../src/shared/contract/review'
import { useTempDir } from '../helpers/tmp'
import { workerA1Project } from '../ratings/helpers'

/** Waits until the clock has moved past `t` (epoch ms), so rating rows get later stamps. */
async function after(t: number): Promise<void> {
  while (Date.now() <= t) await new Promise((resolve) => setTimeout(resolve, 1))
}

describe('the grid as of a moment', () => {
  const tempDir = useTempDir()

  function open() {
    const { path, workerId: w } = workerA1Project(tempDir())
    const session = new Session('cli', () => undefined)
    session.open(path)
    const call = async <T>(name: string, args: unknown): Promise<T> => {
      const outcome = await dispatch(name, args, { session })
      if (!outcome.ok) throw new Error(outcome.error.message)
      return outcome.value as T
    }
    return { session, call, w, path }
  }

  const ratings = (page: ReviewPage) => page.rows.map((r) => [r.id, r.rating, r.ratingSource])

  it('shows, filters and counts the ratings that stood then', async () => {
    const { session, call, w } = open()
    const imported = Date.now()
    await after(imported)
    await call('ratings.rateWorker', { workerId: w, rating: 3, from: '2019-09-03' })
    const first = Date.now()
    await after(first)
    await call('ratings.rateWorker', { workerId: w, rating: 1, from: '2019-09-03' })

    const query = (asOf: number | undefined, filter = {}) =>
      call<ReviewPage>('review.query', { filter, ...(asOf === undefined ? {} : { asOf }) })
    const count = async (asOf: number | undefined, filter = {}) =>
      (await call<{ total: number }>('review.count', { filter, asOf })).total

    const now = await query(undefined)
    expect(now.rows.map((r) => r.rating)).toEqual([-1, -1, 1, 1, 2, 2])
    // Before any manual rating: the file's ratings.
    const then = await query(imported)
    expect(then.rows.map((r) => r.rating)).toEqual([-1, -1, -1, -1, 2, 2])
    expect(then.rows.map((r) => r.id)).toEqual(now.rows.map((r) => r.id))
    // Between the two ratings: the first one (until the file's later rating), from the timeline.
    const between = await query(first)
    expect(between.rows.map((r) => r.rating)).toEqual([-1, -1, 3, 3, 2, 2])
    expect(between.rows.every((r) => r.ratingSource === 1)).toBe(true)
    // After both: the present.
    expect(ratings(await query(Date.now()))).toEqual(ratings(now))

    // The rating filter matches the values of the moment.
    expect((await query(imported, { ratings: [-1] })).total).toBe(4)
    expect((await query(imported, { ratings: [3] })).total).toBe(0)
    expect((await query(first, { ratings: [3] })).rows.map((r) => r.rating)).toEqual([3, 3])
    expect((await query(undefined, { ratings: [3] })).total).toBe(0)
    expect(await count(imported, { ratings: [2] })).toBe(2)
    expect(await count(first, { ratings: [3], dimensions: [1] })).toBe(1)
    expect(await count(undefined, { ratings: [1] })).toBe(2)
    expect(await count(undefined)).toBe(6)

    // Sorted by rating and paged with a cursor, in the moment's order.
    const sorted = await call<ReviewPage>('review.query', {
      sort: { column: 'rating', direction: 'desc' },
      page: { limit: 4 },
      asOf: imported,
    })
    expect(sorted.rows.map((r) => r.rating)).toEqual([2, 2, -1, -1])
    const rest = await call<ReviewPage>('review.query', {
      sort: { column: 'rating', direction: 'desc' },
      page: { limit: 4, after: sorted.next },
      asOf: imported,
    })
    expect(rest.rows.map((r) => r.rating)).toEqual([-1, -1])

    // Copy as TSV reads the same moment as the grid.
    const tsvRatings = async (asOf: number | undefined) => {
      const result = await call<{ tsv: string }>('review.rowsAsTsv', {
        filter: {},
        ...(asOf === undefined ? {} : { asOf }),
      })
      const [head = '', ...lines] = result.tsv.trim().split('\n')
      const column = head.split('\t').indexOf('rating')
      expect(column).toBeGreaterThanOrEqual(0)
      return lines.map((line) => line.split('\t')[column])
    }
    expect(await tsvRatings(undefined)).toEqual(['-1', '-1', '1', '1', '2', '2'])
    expect(await tsvRatings(imported)).toEqual(['-1', '-1', '-1', '-1', '2', '2'])
    expect(await tsvRatings(first)).toEqual(['-1', '-1', '3', '3', '2', '2'])
    session.close()
  })

  it('winnow query --as-of lists the ratings that stood then', async () => {
    const { session, call, w, path } = open()
    const before = Date.now()
    await after(before)
    await call('ratings.rateWorker', { workerId: w, rating: 3, from: '2019-09-03' })
    session.close()
    const cli = async (...argv: string[]) => {
      let stdout = ''
      const code = await runCli(argv, {
        stdout: (t) => (stdout += t),
        stderr: () => undefined,
        interactive: false,
      })
      return { code, stdout }
    }
    const json = async (...extra: string[]) => {
      const out = await cli('query', '--db', path, '--json', ...extra)
      expect(out.code).toBe(0)
      return JSON.parse(out.stdout) as { total: number; rows: { rating: number | null }[] }
    }
    expect((await json()).rows.map((r) => r.rating)).toEqual([-1, -1, 3, 3, 2, 2])
    const then = await json('--as-of', String(before))
    expect(then.rows.map((r) => r.rating)).toEqual([-1, -1, -1, -1, 2, 2])
    expect((await json('--as-of', String(before), '--rating=-1')).total).toBe(4)
    expect((await json('--as-of', new Date().toISOString(), '--rating', '3')).total).toBe(2)
    expect((await cli('query', '--db', path, '--as-of', 'yesterday')).code).toBe(2)
  })
})
