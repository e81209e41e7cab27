import type { ReviewRow, reviewCalls } from '../../shared/contract/review'
import { countAnnotations, queryAnnotations } from '../db/queries/review/query'
import { storyContext } from '../db/queries/review/story'
import { storyMatches } from '../db/queries/stories'
import { deleteView, listViews, saveView } from '../db/queries/review/views'
import { workerMatches, workerPanel } from '../db/queries/workers/workers'
import { pastAnnotations } from '../ratings/asOf'
import { cancelCount, countFor, gridCount } from '../review/gridCounts'
import { orderSoon, pageFromOrder } from '../review/queryOrder'
import { rowsToTsv } from '../review/tsv'
import type { Handlers } from './handlers'
import { append } from '../../shared/lists'

export const reviewHandlers: Handlers<keyof typeof reviewCalls> = {
  'review.query': ({ filter, sort, page, asOf, count }, { session }) => {
    const db = session.project().db
    // A jump into a large result of the present: by id, from the query's order when it is known.
    if (asOf === undefined && page.offset) {
      const known = pageFromOrder(db, filter, sort, page.offset, page.limit)
      if (known) return known
    }
    const result = queryAnnotations(db, {
      filter,
      sort,
      limit: page.limit,
      ...(page.after ? { after: page.after } : {}),
      ...(page.offset !== undefined ? { offset: page.offset } : {}),
      past: pastAnnotations(db, asOf),
      countLater: count === 'later',
    })
    if (asOf === undefined && session.mode !== 'cli' && !result.counting)
      orderSoon(db, filter, sort, result.total)
    return result
  },
  'review.gridCount': async ({ filter, asOf }, { session }) => {
    const db = session.project().db
    const past = pastAnnotations(db, asOf)
    if (past) return { total: countAnnotations(db, filter, past) }
    return { total: await gridCount(db, filter) }
  },
  'review.count': async ({ filter, asOf }, { session }) => {
    const db = session.project().db
    const past = pastAnnotations(db, asOf)
    // The command line counts here: it has nothing else to do while it waits for the total.
    if (past || session.mode === 'cli') return { total: countAnnotations(db, filter, past) }
    return { total: await countFor(db, filter, 'dialog') }
  },
  'review.cancelCount': (_args, { session }) => ({
    cancelled: cancelCount(session.project().db, 'dialog'),
  }),
  'review.story': ({ annotationId, dimension }, { session }) =>
    storyContext(session.project().db, annotationId, dimension),
  'review.worker': ({ workerId }, { session }) => workerPanel(session.project().db, workerId),
  'review.workers': ({ query, limit }, { session }) =>
    workerMatches(session.project().db, query, limit),
  'review.stories': ({ query, limit }, { session }) =>
    storyMatches(session.project().db, query, limit),
  'review.listViews': (_args, { session }) => listViews(session.project().db),
  'review.saveView': (view, { session }) => saveView(session.project().db, view),
  'review.deleteView': ({ name }, { session }) => ({
    deleted: deleteView(session.project().db, name),
  }),
  'review.rowsAsTsv': ({ filter, sort, limit, asOf }, { session }) => {
    const db = session.project().db
    const past = pastAnnotations(db, asOf)
    const rows: ReviewRow[] = []
    let total = 0
    let after: Parameters<typeof queryAnnotations>[1]['after']
    // Pages of up to 1,000 rows until the limit: a whole query never becomes one giant read.
    while (rows.length < limit) {
      const page = queryAnnotations(db, {
        filter,
        sort,
        limit: Math.min(1000, limit - rows.length),
        ...(after ? { after } : {}),
        past,
      })
      total = page.total
      append(rows, page.rows)
      if (!page.next) break
      after = page.next
    }
    return { tsv: rowsToTsv(rows), rows: rows.length, total, truncated: total > rows.length }
  },
}
