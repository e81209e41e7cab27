import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Db, all } from '../../src/main/db/connection'
import { queryAnnotations, reviewTuning } from '../../src/main/db/queries/review/query'
import { sortDef } from '../../src/main/db/queries/review/sort'
import { sql } from '../../src/main/db/sql'
import type { ReviewCursor } from '../../src/shared/contract/review'
import { type AnnotationFilter, type SortSpec, sortColumns } from '../../src/shared/filter'
import { plainRows, reference, synthProject } from './fixture'

type Raw = Record<string, string | number | null>

/** ASCII-only case folding, as SQLite's NOCASE. */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0
  if (a === null) return -1
  if (b === null) return 1
  if (typeof a === 'string' && typeof b === 'string') {
    const x = nocase(a)
    const y = nocase(b)
    return x < y ? -1 : x > y ? 1 : 0
  }
  return (a as number) - (b as number)
}

/** The order the sort promises, computed in JS from the raw columns. */
function expectedOrder(raw: Map<number, Raw>, ids: number[], sort: SortSpec): number[] {
  const keys = sortDef(sort.column).keys.map((k) =>
    k.expr.replace(/^\w+\./, '').replace(/ COLLATE \w+$/, ''),
  )
  const sign = sort.direction === 'desc' ? -1 : 1
  return [...ids].sort((x, y) => {
    const a = raw.get(x) as Raw
    const b = raw.get(y) as Raw
    for (const key of keys) {
      const c = compareValues(a[key] ?? null, b[key] ?? null)
      if (c !== 0) return sign * c
    }
    return sign * (x - y)
  })
}

function readAll(db: Db, filter: AnnotationFilter, sort: SortSpec): number[] {
  return queryAnnotations(db, { filter, sort, limit: 1_000_000 }).rows.map((r) => r.id)
}

function readByKeyset(db: Db, filter: AnnotationFilter, sort: SortSpec, size: number): number[] {
  const out: number[] = []
  let after: ReviewCursor | undefined
  for (let guard = 0; guard < 10_000; guard++) {
    const page = queryAnnotations(db, { filter, sort, limit: size, ...(after ? { after } : {}) })
    out.push(...page.rows.map((r) => r.id))
    if (!page.next) return out
    after = page.next
  }
  throw new Error('keyset paging did not end')
}

function readByOffset(db: Db, filter: AnnotationFilter, sort: SortSpec, size: number): number[] {
  const out: number[] = []
  for (let offset = 0; ; offset += size) {
    const page = queryAnnotations(db, { filter, sort, limit: size, offset })
    out.push(...page.rows.map((r) => r.id))
    if (page.rows.length < size) return out
  }
}

describe('sorting and paging', () => {
  let dir = ''
  let db: Db
  let raw: Map<number, Raw>
  let rows: ReturnType<typeof plainRows>

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'winnow-test-'))
    db = synthProject(dir, 250, true)
    rows = plainRows(db)
    raw = new Map(
      all<Raw>(
        db,
        sql`SELECT a.*, se.text, t.specific_nl, t.general_nl FROM annotations a
            JOIN annotation_texts t ON t.annotation_id = a.id
            LEFT JOIN sentences se ON se.story_id = a.story_id AND se.idx = a.sentence_index`,
      ).map((r) => [r.id as number, r]),
    )
  })
  afterAll(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const filters: AnnotationFilter[] = [
    {},
    { ratings: [2, 'unrated'] },
    { dimensions: [1, 2, 6], from: '2019-09-10' },
    { text: 'the' },
    { text: 'the', dimensions: [1, 2, 6] },
    { sentence: 'e', flagged: false },
    { sentence: 'the', ratings: [2, 3] },
    { sentence: 'to', dimensions: [1, 6] },
    { sentence: 'went', workers: ['19', '2', '3', '4', '5', '6'] },
  ]

  for (const walk of [false, true]) {
    for (const column of sortColumns) {
      for (const direction of ['asc', 'desc'] as const) {
        it(`${column} ${direction}${walk ? ' (walking the index)' : ''}: one total order, pages without gaps or repeats`, () => {
          reviewTuning.walkAbove = walk ? 10 : 50_000
          try {
            const sort = { column, direction }
            for (const filter of filters) {
              const want = expectedOrder(raw, reference(rows, filter), sort)
              const label = JSON.stringify({ filter, sort })
              expect(readAll(db, filter, sort), label).toEqual(want)
              expect(readByKeyset(db, filter, sort, 37), label).toEqual(want)
              expect(readByOffset(db, filter, sort, 53), label).toEqual(want)
            }
          } finally {
            reviewTuning.walkAbove = 50_000
          }
        })
      }
    }
  }

  it('continues with keyset paging after an offset jump', () => {
    const sort: SortSpec = { column: 'rating', direction: 'desc' }
    const want = readAll(db, {}, sort)
    const jump = queryAnnotations(db, { filter: {}, sort, limit: 20, offset: 300 })
    const next = queryAnnotations(db, {
      filter: {},
      sort,
      limit: 20,
      after: jump.next as ReviewCursor,
    })
    expect([...jump.rows, ...next.rows].map((r) => r.id)).toEqual(want.slice(300, 340))
  })

  it('ends with a null cursor and refuses a cursor of another sort', () => {
    const last = queryAnnotations(db, { filter: {}, limit: 5, offset: rows.length - 3 })
    expect(last.rows).toHaveLength(3)
    expect(last.next).toBeNull()
    const page = queryAnnotations(db, {
      filter: {},
      sort: { column: 'dimension', direction: 'asc' },
      limit: 5,
    })
    expect(() =>
      queryAnnotations(db, {
        filter: {},
        sort: { column: 'id', direction: 'asc' },
        limit: 5,
        after: page.next as ReviewCursor,
      }),
    ).toThrowError(/another sort/)
  })
})
