import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { CancelledError } from '../../src/main/jobs/cancel'
import { type ImportProgress, importFiles } from '../../src/main/importers/run'
import { useTempDir } from '../helpers/tmp'
import { releaseCsv } from '../helpers/glucose'

/**
 * An import that brings at least as many annotations as the project holds drops the annotation
 * and submission indexes and rebuilds them after its rows (bulk.ts), sorting on worker threads
 * through temporary files (run.ts sets them for the import's duration).
 */
describe('an import large enough to rebuild the indexes', () => {
  const tempDir = useTempDir()

  const settings = (db: Db) =>
    Object.fromEntries(
      ['temp_store', 'threads', 'cache_size', 'foreign_keys', 'wal_autocheckpoint'].map((name) => [
        name,
        db.pragma(name, { simple: true }),
      ]),
    )
  const indexes = (db: Db) =>
    db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name").all()

  it('puts every index back as it was, agreeing with the rows, and the connection as it was', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'large.csv', 5400, 31)
    // The rebuild's threshold: about 700 bytes of CSV per annotation, at least 20,000 of them.
    expect(statSync(csv).size / 700).toBeGreaterThan(20_000)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    const before = { settings: settings(db), indexes: indexes(db) }
    expect(before.settings).toMatchObject({ temp_store: 2, threads: 0 })
    const result = importFiles(db, [{ path: csv }], { readAhead: true })
    expect(result.submissions).toBe(5400)
    expect(settings(db)).toEqual(before.settings)
    expect(indexes(db)).toEqual(before.indexes)
    // Every index holds exactly the entries of its table's rows.
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }])
    db.close()
  })

  it('restores the connection after a failed import too', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'large.csv', 5400, 32)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    const before = { settings: settings(db), indexes: indexes(db) }
    let seen = 0
    expect(() => importFiles(db, [{ path: csv }], {}, { cancelled: () => ++seen > 2 })).toThrow()
    expect(settings(db)).toEqual(before.settings)
    expect(indexes(db)).toEqual(before.indexes)
    expect(db.prepare('SELECT count(*) FROM annotations').pluck().get()).toBe(0)
    db.close()
  })

  it('names its steps after the rows, and a cancel at any of them leaves the project as it was', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'large.csv', 5400, 33)
    const rebuilt = (db: Db) =>
      db
        .prepare(
          `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
             AND tbl_name IN ('annotations', 'submissions')`,
        )
        .pluck()
        .get() as number
    const steps: string[] = []
    const first = openProject(join(dir, 'first.winnow'), { create: true })
    const total = rebuilt(first)
    importFiles(
      first,
      [{ path: csv }],
      {},
      {
        progress: (p: ImportProgress) => {
          if (p.step !== undefined) steps.push(p.step)
        },
      },
    )
    first.close()
    expect(steps).toEqual([
      'Building worker rating timelines',
      ...Array.from({ length: total }, (_, i) => `Building indexes (${i + 1} of ${total})`),
    ])

    const db = openProject(join(dir, 'p.winnow'), { create: true })
    const before = { settings: settings(db), indexes: indexes(db) }
    // At the rating timelines, at the first index and at the last, right before the commit.
    for (const at of [steps[0], steps[1], steps.at(-1)]) {
      let reached = false
      expect(() =>
        importFiles(
          db,
          [{ path: csv }],
          {},
          {
            progress: (p) => {
              if (p.step === at) reached = true
            },
            cancelled: () => reached,
          },
        ),
      ).toThrow(CancelledError)
      expect(db.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
      expect(indexes(db)).toEqual(before.indexes)
      expect(settings(db)).toEqual(before.settings)
    }
    db.close()
  })
})
