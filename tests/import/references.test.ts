import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { importFiles } from '../../src/main/importers/run'
import { useTempDir } from '../helpers/tmp'
import { dimensionCsvs, releaseCsv } from '../helpers/glucose'

/**
 * An import writes without SQLite checking each row's foreign keys (`IMPORT_PRAGMAS` in
 * run.ts): these tests check that every reference it writes holds, in every layout and path.
 */
describe('references written by an import', () => {
  const tempDir = useTempDir()

  const broken = (db: Db): unknown[] => db.pragma('foreign_key_check') as unknown[]
  const checksOn = (db: Db): boolean => db.pragma('foreign_keys', { simple: true }) === 1
  const count = (db: Db, table: string): number =>
    db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number

  it('all hold after release files, into an empty project and one with ratings, on either thread', () => {
    const dir = tempDir()
    const first = releaseCsv(dir, 'first.csv', 200, 21, {
      workerStyle: 'mturk',
      ratingStyle: 'int',
    })
    const second = releaseCsv(dir, 'second.csv', 200, 22, {
      workerStyle: 'mturk',
      ratingStyle: 'float',
    })
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    importFiles(db, [{ path: first }], { readAhead: true })
    // The project now has ratings: the second import takes the trigger's path.
    importFiles(db, [{ path: second }], { readAhead: false })
    expect(count(db, 'annotations')).toBeGreaterThan(1000)
    expect(count(db, 'worker_ratings')).toBeGreaterThan(0)
    expect(broken(db)).toEqual([])
    expect(checksOn(db)).toBe(true)
    db.close()
  })

  it('all hold after per-dimension files merge into existing submissions, and after the test set', () => {
    const dir = tempDir()
    const { generated, files } = dimensionCsvs(dir, 150, 23)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    importFiles(db, files.slice(0, 2), { year: 2019 })
    importFiles(db, files.slice(2), { year: 2019 })
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'glucose', 'test_key.csv')
    importFiles(db, [{ path: fixture }])
    expect(count(db, 'submissions')).toBeGreaterThan(generated.length)
    expect(broken(db)).toEqual([])
    expect(checksOn(db)).toBe(true)
    db.close()
  })

  it('are checked again after an import that failed', () => {
    const dir = tempDir()
    const bad = releaseCsv(dir, 'bad.csv', 50, 24)
    // A ragged last row: the import fails after it has written the rows before it.
    appendFileSync(bad, 'one,two\n')
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    expect(() => importFiles(db, [{ path: bad }])).toThrow(/bad\.csv:52/)
    expect(count(db, 'submissions')).toBe(0)
    expect(checksOn(db)).toBe(true)
    db.close()
  })
})
