import { afterEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { pluck } from '../../src/main/db/connection'
import { countAnnotations, queryAnnotations } from '../../src/main/db/queries/review/query'
import { storyContext } from '../../src/main/db/queries/review/story'
import { storyMatches } from '../../src/main/db/queries/stories'
import { deleteView, listViews, saveView } from '../../src/main/db/queries/review/views'
import { workerMatches, workerPanel } from '../../src/main/db/queries/workers/workers'
import { sql } from '../../src/main/db/sql'
import { dispatch } from '../../src/main/api/dispatch'
import { Session } from '../../src/main/session'
import { rowsToTsv } from '../../src/main/review/tsv'
import { tsvCell } from '../../src/shared/tsv'
import { useTempDir } from '../helpers/tmp'
import { handProject } from './fixture'

describe('story view, worker panel, views and TSV', () => {
  const tempDir = useTempDir()
  let db: Db | undefined
  afterEach(() => db?.close())

  function firstId(filter: Parameters<typeof queryAnnotations>[1]['filter']): number {
    const row = queryAnnotations(db as Db, { filter, limit: 1 }).rows[0]
    if (!row) throw new Error('no row')
    return row.id
  }

  it('shows the story, the ten dimensions and the other workers of the same sentence', () => {
    db = handProject(tempDir())
    const id = firstId({ workers: ['A1ALPHA'], dimensions: [1], stories: ['story-cat'] })
    const view = storyContext(db, id)
    expect(view.storyId).toBe('story-cat')
    expect(view.sentence).toBe('The cat was hungry.')
    expect(view.sentenceRange).toEqual([15, 34])
    expect(view.storyText.slice(...(view.sentenceRange as [number, number]))).toBe(view.sentence)
    expect(view.submission.workerId).toBe('A1ALPHA')
    expect(view.submission.dimensions.map((d) => d.dimension)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ])
    expect(
      view.submission.dimensions.filter((d) => d.annotationId !== null).map((d) => d.dimension),
    ).toEqual([1, 2, 6])
    expect(view.submission.dimensions[2]).toMatchObject({ annotationId: null, specificNL: null })
    expect(view.dimension).toBe(1)
    expect(view.peers.map((p) => p.workerId)).toEqual(['A2BRAVO'])
    expect(view.peers[0]?.specificNL).toMatch(/^Nobody fed the cat/)
    expect(storyContext(db, id, 6).peers.map((p) => p.workerId)).toEqual(['A2BRAVO'])
    expect(storyContext(db, id, 2).peers).toEqual([])
    expect(() => storyContext(db as Db, 999_999_999)).toThrowError(/No annotation/)
  })

  it('sums up a worker against the crowd', () => {
    db = handProject(tempDir())
    const panel = workerPanel(db, 'A1ALPHA')
    expect(panel).toMatchObject({
      workerId: 'A1ALPHA',
      submissions: 2,
      annotations: 5,
      averageDimensions: 2.5,
      firstSubmittedAt: Date.UTC(2019, 8, 1) / 1000,
      lastSubmittedAt: Date.UTC(2019, 8, 3) / 1000,
    })
    expect(panel.id).toBe(pluck(db, sql`SELECT id FROM workers WHERE external_id = 'A1ALPHA'`))
    expect(panel.dimensionProfile).toHaveLength(10)
    expect(panel.dimensionProfile[0]).toEqual({ dimension: 1, worker: 2 / 5, crowd: 6 / 17 })
    expect(panel.dimensionProfile.reduce((s, d) => s + d.worker, 0)).toBeCloseTo(1)
    expect(panel.fileRatings).toEqual([
      {
        rating: 3,
        submissions: 1,
        first: Date.UTC(2019, 8, 1) / 1000,
        last: Date.UTC(2019, 8, 1) / 1000,
      },
      {
        rating: 2,
        submissions: 1,
        first: Date.UTC(2019, 8, 3) / 1000,
        last: Date.UTC(2019, 8, 3) / 1000,
      },
    ])
    expect(panel.ratings).toEqual([
      { rating: 3, annotations: 3 },
      { rating: 2, annotations: 2 },
    ])
    expect(workerPanel(db, 'A2BRAVO').ratings).toEqual([
      { rating: 2, annotations: 2 },
      { rating: null, annotations: 3 },
    ])
    expect(() => workerPanel(db as Db, 'nobody')).toThrowError(/No worker/)
  })

  it('finds workers as the user types, prefix matches first, metacharacters literal', () => {
    db = handProject(tempDir())
    expect(workerMatches(db, 'a', 10).map((w) => w.workerId)).toEqual([
      'A1ALPHA',
      'A2BRAVO',
      'A3CHARLIE',
    ])
    expect(workerMatches(db, 'ALPHA', 10)).toEqual([{ workerId: 'A1ALPHA', annotations: 5 }])
    expect(workerMatches(db, '_%', 10).map((w) => w.workerId)).toEqual(['X_%\'"Y'])
    expect(workerMatches(db, '%', 10).map((w) => w.workerId)).toEqual(['X_%\'"Y'])
    expect(workerMatches(db, '', 2)).toHaveLength(2)
  })

  it('finds stories by the first characters of their ids, with their volume and opening', () => {
    db = handProject(tempDir())
    const count = (story: string) => countAnnotations(db as Db, { stories: [story] })
    expect(storyMatches(db, 'story-', 10).map((s) => s.storyId)).toEqual([
      'story-bill',
      'story-cat',
      'story-dog',
    ])
    const [cat] = storyMatches(db, ' story-c ', 10)
    expect(cat).toEqual({
      storyId: 'story-cat',
      annotations: count('story-cat'),
      opening: expect.stringMatching(/^\S/) as unknown,
    })
    expect(cat?.annotations).toBeGreaterThan(0)
    expect(storyMatches(db, 'story-', 2)).toHaveLength(2)
    // Only the start of an id counts, compared exactly; LIKE metacharacters are plain text.
    expect(storyMatches(db, 'cat', 10)).toEqual([])
    expect(storyMatches(db, 'STORY-', 10)).toEqual([])
    expect(storyMatches(db, 'story%', 10)).toEqual([])
    expect(storyMatches(db, '', 10)).toEqual([])
  })

  it('saves, lists, replaces and deletes named views', () => {
    db = handProject(tempDir())
    expect(listViews(db)).toEqual([])
    const saved = saveView(db, { name: 'Cats', filter: { text: 'cat', dimensions: [1] } })
    expect(saved).toMatchObject({ name: 'Cats', sort: { column: 'id', direction: 'asc' } })
    saveView(db, {
      name: 'a first',
      filter: { ratings: ['unrated'] },
      sort: { column: 'rating', direction: 'desc' },
      columns: [
        { id: 'sentence', hidden: true },
        { id: 'specificNL', width: 400 },
      ],
    })
    saveView(db, { name: 'Cats', filter: { text: 'cat' } })
    const views = listViews(db)
    expect(views.map((v) => v.name)).toEqual(['a first', 'Cats'])
    expect(views[1]?.filter).toEqual({ text: 'cat' })
    expect(views[0]?.columns).toEqual([
      { id: 'sentence', hidden: true },
      { id: 'specificNL', width: 400 },
    ])
    expect(deleteView(db, 'Cats')).toBe(true)
    expect(deleteView(db, 'Cats')).toBe(false)
    expect(listViews(db).map((v) => v.name)).toEqual(['a first'])
    // A view stored by an older vocabulary is skipped, not fatal.
    db.prepare(
      'INSERT INTO review_views (name, body, saved_at) VALUES (\'old\', \'{"filter":{"colour":1}}\', 0)',
    ).run()
    expect(listViews(db).map((v) => v.name)).toEqual(['a first'])
  })

  it('copies rows as TSV that no spreadsheet runs as a formula', () => {
    db = handProject(tempDir())
    const rows = queryAnnotations(db, { filter: { workers: ['X_%\'"Y'] }, limit: 10 }).rows
    const tsv = rowsToTsv(rows)
    const lines = tsv.trimEnd().split('\n')
    expect(lines[0]).toBe(
      'annotationId\tsubmissionId\tassignmentId\tworkerId\tstoryId\tsentenceIndex\tsentence\tdimension\tspecificNL\tgeneralNL\tsubmittedAt\trating',
    )
    expect(lines).toHaveLength(3)
    expect(lines[1]?.split('\t')).toHaveLength(12)
    expect(lines[1]).toContain('\t2019-09-03\t1.5')
    expect(tsvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"')
    expect(tsvCell('a\tb\nc')).toBe('"a\tb\nc"')
    expect(tsvCell(null)).toBe('')
    expect(tsvCell(-1)).toBe('-1')
  })

  it('answers the review calls through the contract', async () => {
    const dir = tempDir()
    handProject(dir).close()
    const session = new Session('cli', () => undefined)
    session.open(`${dir}/hand.winnow`)
    const context = { session }
    const query = await dispatch(
      'review.query',
      { filter: { dimensions: [1] }, page: { limit: 2 } },
      context,
    )
    expect(query).toMatchObject({ ok: true, value: { total: 6 } })
    const value = (query as { value: { rows: unknown[]; next: unknown } }).value
    expect(value.rows).toHaveLength(2)
    const next = await dispatch(
      'review.query',
      { filter: { dimensions: [1] }, page: { limit: 10, after: value.next } },
      context,
    )
    expect((next as { value: { rows: unknown[] } }).value.rows).toHaveLength(4)
    expect(await dispatch('review.count', { filter: { flagged: true } }, context)).toEqual({
      ok: true,
      value: { total: 2 },
    })
    const bad = await dispatch('review.query', { filter: { dimensions: [11] } }, context)
    expect(bad).toMatchObject({ ok: false, error: { type: 'invalid-argument' } })
    const both = await dispatch(
      'review.query',
      { page: { offset: 1, after: { key: [], id: 1 } } },
      context,
    )
    expect(both).toMatchObject({ ok: false, error: { type: 'invalid-argument' } })
    const unknown = await dispatch('review.query', { filter: { colour: 'red' } }, context)
    expect(unknown).toMatchObject({ ok: false, error: { type: 'invalid-argument' } })
    const tsv = await dispatch(
      'review.rowsAsTsv',
      { filter: { workers: ['A1ALPHA'] }, limit: 3 },
      context,
    )
    expect(tsv).toMatchObject({ ok: true, value: { rows: 3, total: 5, truncated: true } })
    expect(await dispatch('review.saveView', { name: ' ', filter: {} }, context)).toMatchObject({
      ok: false,
    })
    session.close()
  })
})
