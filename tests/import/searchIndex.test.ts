import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { searchBacklogSize } from '../../src/main/db/queries/search'
import { INDEXING_CACHE_MB } from '../../src/main/importers/intoProject'
import { importFiles } from '../../src/main/importers/run'
import { ensureSearchIndexed, indexSearchText } from '../../src/main/search/indexer'
import { useTempDir } from '../helpers/tmp'
import { releaseCsv } from '../helpers/glucose'

describe('full-text index after an import', () => {
  const tempDir = useTempDir()

  function imported() {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 2000, 21)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    const result = importFiles(db, [{ path: csv }])
    return { db, result }
  }

  const matches = (db: ReturnType<typeof imported>['db'], word: string) =>
    db
      .prepare('SELECT count(*) FROM annotation_search WHERE annotation_search MATCH ?')
      .pluck()
      .get(word) as number

  it('commits the rows first and indexes every annotation right after', () => {
    const { db, result } = imported()
    expect(searchBacklogSize(db)).toBe(result.annotations)
    const steps: number[] = []
    expect(indexSearchText(db, { progress: (done) => steps.push(done) })).toBe(result.annotations)
    expect(searchBacklogSize(db)).toBe(0)
    expect(steps[0]).toBe(0)
    expect(steps.at(-1)).toBe(result.annotations)
    const word = (
      db.prepare('SELECT specific_nl FROM annotation_texts LIMIT 1').pluck().get() as string
    ).split(' ')[0]!
    expect(matches(db, `"${word}"`)).toBeGreaterThan(0)
    db.close()
  })

  it('indexes with the page cache it is given, then gives the connection its own back', () => {
    const { db, result } = imported()
    const before = db.pragma('cache_size', { simple: true })
    const caches = new Set<unknown>()
    const indexed = indexSearchText(db, {
      cacheMb: INDEXING_CACHE_MB,
      chunk: 1000,
      progress: () => caches.add(db.pragma('cache_size', { simple: true })),
    })
    expect(indexed).toBe(result.annotations)
    expect([...caches]).toEqual([-INDEXING_CACHE_MB * 1024])
    expect(db.pragma('cache_size', { simple: true })).toBe(before)
    db.close()
  })

  it('keeps what was indexed when stopped, and finishes before a text query', () => {
    const { db, result } = imported()
    let calls = 0
    const first = indexSearchText(db, { cancelled: () => calls++ > 0, chunk: 1000 })
    expect(first).toBe(1000)
    expect(searchBacklogSize(db)).toBe(result.annotations - first)
    ensureSearchIndexed(db)
    expect(searchBacklogSize(db)).toBe(0)
    const indexed = db.prepare('SELECT count(*) FROM annotation_search_docsize').pluck().get()
    expect(indexed).toBe(result.annotations)
    db.close()
  })
})
