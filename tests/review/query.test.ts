import { afterEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import {
  allPages,
  countAnnotations,
  matchingAnnotationIds,
  queryAnnotations,
} from '../../src/main/db/queries/review/query'
import { all } from '../../src/main/db/connection'
import type { AnnotationFilter } from '../../src/shared/filter'
import { useTempDir } from '../helpers/tmp'
import { type Plain, handProject, plainRows, reference, synthProject } from './fixture'

/** Every id the filter selects, read page by page in id order. */
function ids(db: Db, filter: AnnotationFilter): number[] {
  const out: number[] = []
  let total = -1
  for (const page of allPages(db, filter, { column: 'id', direction: 'asc' }, 500)) {
    out.push(...page.rows.map((r) => r.id))
    total = page.total
  }
  expect(total).toBe(out.length)
  return out
}

function expectSame(db: Db, rows: Plain[], filter: AnnotationFilter): number[] {
  const want = reference(rows, filter)
  expect(ids(db, filter), JSON.stringify(filter)).toEqual(want)
  expect(countAnnotations(db, filter)).toBe(want.length)
  const bulk = matchingAnnotationIds(db, filter)
  const viaBulk = bulk
    ? all<{ id: number }>(db, bulk)
        .map((r) => r.id)
        .sort((a, b) => a - b)
    : []
  expect(viaBulk, `matchingAnnotationIds ${JSON.stringify(filter)}`).toEqual(want)
  return want
}

describe('review query semantics (hand-written rows)', () => {
  const tempDir = useTempDir()
  let db: Db | undefined
  afterEach(() => db?.close())

  function open(): { db: Db; rows: Plain[] } {
    db = handProject(tempDir())
    return { db, rows: plainRows(db) }
  }

  it('selects everything without a filter', () => {
    const { db, rows } = open()
    expect(expectSame(db, rows, {})).toHaveLength(rows.length)
  })

  it('applies every filter alone', () => {
    const { db, rows } = open()
    const alone: AnnotationFilter[] = [
      { workers: ['A1ALPHA'] },
      { workers: ['A1ALPHA', 'A2BRAVO'] },
      { workers: ['nobody'] },
      { stories: ['story-dog'] },
      { dimensions: [1] },
      { dimensions: [2, 7] },
      { sentence: 'cat' },
      { sentence: 'The cat' },
      { sentence: 'it' },
      { text: 'hungry' },
      { text: 'cat hungry' },
      { from: '2019-09-03' },
      { to: '2019-09-02' },
      { from: '2019-09-02', to: '2019-09-03' },
      { ratings: [2] },
      { ratings: [3, 1.5] },
      { ratings: ['unrated'] },
      { ratings: [-1, 'unrated'] },
      { flagged: true },
      { annotationIds: [rows[0]!.id, rows[3]!.id] },
      { submissionIds: [rows[0]!.submissionId] },
    ]
    for (const filter of alone) expectSame(db, rows, filter)
    // Each of those really narrows something (the reference is not trivially empty or full).
    expect(reference(rows, { ratings: ['unrated'] }).length).toBeGreaterThan(0)
    expect(reference(rows, { flagged: true }).length).toBe(2)
  })

  it('picks annotations by the kind of their flag', () => {
    const { db, rows } = open()
    expect(expectSame(db, rows, { flagKinds: ['NlUnparsed'] })).toHaveLength(1)
    expect(expectSame(db, rows, { flagKinds: ['ConnectorMismatch', 'NlUnparsed'] })).toHaveLength(2)
    expect(
      expectSame(db, rows, { flagKinds: ['ConnectorMismatch'], dimensions: [6] }),
    ).toHaveLength(1)
    expect(expectSame(db, rows, { flagKinds: ['Hidden'], flagged: true })).toHaveLength(0)
  })

  it('combines different filters with AND and repeated values with OR', () => {
    const { db, rows } = open()
    const combos: AnnotationFilter[] = [
      { workers: ['A1ALPHA'], dimensions: [1] },
      { workers: ['A1ALPHA', 'A2BRAVO'], ratings: [2] },
      { stories: ['story-cat'], text: 'hungry', dimensions: [6] },
      { sentence: 'dog', ratings: ['unrated'] },
      { sentence: 'dog', ratings: ['unrated', -1], dimensions: [1, 2] },
      { from: '2019-09-01', to: '2019-09-04', ratings: [2, 3], dimensions: [1, 6] },
      { workers: ['A2BRAVO'], flagged: true },
      { flagged: true, dimensions: [3] },
      { text: 'happy', from: '2019-09-04' },
      { text: 'open', workers: ['A2BRAVO'] },
      { workers: ['A3CHARLIE'], from: '2019-09-01', ratings: [-1] },
    ]
    for (const filter of combos) expectSame(db, rows, filter)
    expect(reference(rows, { workers: ['A1ALPHA'], dimensions: [1] })).toHaveLength(2)
  })

  it('reads search text with punctuation and quotes as words, never as FTS syntax', () => {
    const { db, rows } = open()
    const searches = [
      'feel(s)',
      '"Someone_A feel(s)"',
      '"loudly',
      'loudly"',
      "It's",
      "'treat'",
      'AND OR NOT',
      'hungry OR',
      'cat* NEAR(dog)',
      'Causes/Enables',
      '>Motivates>',
      '100%',
      '-dog',
      '^cat',
      'col:cat',
      '""',
      '(((',
      'a"b"c',
    ]
    for (const text of searches) expectSame(db, rows, { text })
    expect(reference(rows, { text: '"Someone_A feel(s)"' }).length).toBeGreaterThan(0)
    expect(reference(rows, { text: "'treat'" }).length).toBe(2)
    // Only punctuation: no word to look for, so nothing matches.
    expect(ids(db, { text: '(((' })).toEqual([])
  })

  it('takes SQL metacharacters in filters literally', () => {
    const { db, rows } = open()
    expect(expectSame(db, rows, { sentence: '100%' }).length).toBeGreaterThan(0)
    expect(expectSame(db, rows, { sentence: '%' }).length).toBeGreaterThan(0)
    expect(expectSame(db, rows, { sentence: 'bill_total' }).length).toBeGreaterThan(0)
    expect(expectSame(db, rows, { sentence: 'bill total' })).toEqual([])
    expect(expectSame(db, rows, { sentence: '_' }).length).toBeGreaterThan(0)
    expect(expectSame(db, rows, { sentence: '"thanks"' }).length).toBe(0)
    expect(expectSame(db, rows, { sentence: "It's Ann's 'treat'" }).length).toBe(2)
    expect(expectSame(db, rows, { sentence: '\\' })).toEqual([])
    expect(expectSame(db, rows, { sentence: "'; DROP TABLE annotations; --" })).toEqual([])
    expect(expectSame(db, rows, { workers: ['X_%\'"Y'] })).toHaveLength(2)
    expect(expectSame(db, rows, { workers: ['X%'] })).toEqual([])
    expect(expectSame(db, rows, { stories: ['story-%'] })).toEqual([])
    expect(countAnnotations(db, {})).toBe(rows.length)
  })

  it('finishes the full-text index before searching what an import just wrote', () => {
    db = handProject(tempDir(), false)
    const rows = plainRows(db)
    expect(expectSame(db, rows, { text: 'loudly', stories: ['story-cat'] })).toHaveLength(1)
    expect(expectSame(db, rows, { text: 'hungry' }).length).toBeGreaterThan(2)
  })

  it('returns the search tokens to highlight', () => {
    const { db } = open()
    expect(
      queryAnnotations(db, { filter: { text: 'Feel(s) "the CAT"' }, limit: 5 }).highlight,
    ).toEqual(['feel', 's', 'the', 'cat'])
    expect(queryAnnotations(db, { filter: {}, limit: 5 }).highlight).toEqual([])
  })

  it('fills grid rows with what the reviewer reads', () => {
    const { db } = open()
    const page = queryAnnotations(db, {
      filter: { workers: ['X_%\'"Y'], dimensions: [2] },
      limit: 10,
    })
    expect(page.rows).toEqual([
      expect.objectContaining({
        workerId: 'X_%\'"Y',
        storyId: 'story-bill',
        sentenceIndex: 3,
        sentence: "It's Ann's 'treat' today.",
        dimension: 2,
        specificNL: "Ann feel(s) generous >Motivates> It's Ann's 'treat' today",
        rating: 1.5,
        fileRating: 1.5,
        flags: 0,
        submissionFlags: 2,
        assignmentId: 'ASSIGNA4',
      }),
    ])
  })
})

describe('review query semantics (generated rows)', () => {
  const tempDir = useTempDir()
  let db: Db | undefined
  afterEach(() => db?.close())

  it('agrees with the plain reference on single and combined filters', () => {
    db = synthProject(tempDir(), 400)
    const rows = plainRows(db)
    const workers = [...new Set(rows.map((r) => r.worker).filter((w): w is string => w !== null))]
    const stories = [...new Set(rows.map((r) => r.story))]
    const days = rows
      .map((r) => r.submittedAt)
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b)
    const iso = (t: number) => new Date(t * 1000).toISOString().slice(0, 10)
    const mid = iso(days[Math.floor(days.length / 2)]!)
    const late = iso(days[Math.floor((days.length * 3) / 4)]!)
    const someText = rows[5]!.specific.split(/\s+/).find((w) => /^[a-z]{4,}$/i.test(w)) ?? 'the'
    const someSentence = rows[9]!.sentence.split(' ').slice(1, 3).join(' ')
    const filters: AnnotationFilter[] = [
      { workers: workers.slice(0, 3) },
      { stories: stories.slice(0, 4) },
      { dimensions: [1, 6] },
      { ratings: [2] },
      { ratings: [3, 'unrated'] },
      { from: mid },
      { from: mid, to: late },
      { flagged: true },
      { text: someText },
      { sentence: someSentence },
      { sentence: 'a' },
      { workers: workers.slice(0, 5), dimensions: [2] },
      { workers: workers.slice(0, 5), from: mid },
      { ratings: [2], from: mid },
      { ratings: [2, 3], dimensions: [1, 2, 3], to: late },
      { dimensions: [1], from: mid, to: late },
      { flagged: true, ratings: [2, 3] },
      { text: someText, dimensions: [1, 2, 6] },
      { sentence: someSentence, ratings: [2, 3] },
      { sentence: someSentence, workers: workers.slice(0, 8) },
      { text: someText, sentence: someSentence },
      { stories: stories.slice(0, 10), ratings: [2], dimensions: [1, 6, 7] },
    ]
    let nonEmpty = 0
    for (const filter of filters) if (expectSame(db, rows, filter).length > 0) nonEmpty++
    expect(nonEmpty).toBeGreaterThan(filters.length - 4)
  })
})
