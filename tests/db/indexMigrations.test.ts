import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { REVIEW_INDEXES } from '../../src/main/db/queries/review/indexes'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import { migrate } from '../../src/main/db/migrations'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { useTempDir } from '../helpers/tmp'

/** A project at schema `version` with 300 generated submissions, as an older Winnow wrote it. */
function projectAt(
  version: number,
  dir: string,
  seed: number,
): { db: Database.Database; path: string } {
  const path = join(dir, 'p.winnow')
  const db = new Database(path)
  migrate(db, path, version)
  db.transaction(() => {
    const changeSet = createChangeSet(db, { kind: 'import', author: 'test', description: 'x' })
    const writer = new SubmissionWriter(db, changeSet.id, null)
    for (const s of generateSubmissions({ count: 300, seed })) writer.write(s)
    writer.finish()
  })()
  return { db, path }
}

describe('migration 005 (narrow ann_rating)', () => {
  const tempDir = useTempDir()

  it('keeps every annotation and answers rating seeks as before', () => {
    const { db, path } = projectAt(4, tempDir(), 5)
    // Several effective ratings, some unrated, so the seeks below have something to find.
    db.exec(`UPDATE annotations SET rating = CASE WHEN id % 5 = 0 THEN NULL ELSE id % 4 END,
      rating_source = CASE WHEN id % 5 = 0 THEN 0 ELSE 1 END`)
    const rows = () => db.prepare('SELECT * FROM annotations ORDER BY id').all()
    const seek = (rating: number | null) =>
      db
        .prepare(
          `SELECT id, worker_id, submitted_at, dimension FROM annotations INDEXED BY ann_rating
           WHERE rating IS ? ORDER BY worker_id, submitted_at, dimension, id`,
        )
        .all(rating)
    const before = { rows: rows(), seeks: [null, 1, 2, 3].map(seek) }
    expect(before.seeks.every((s) => s.length > 0)).toBe(true)

    migrate(db, path, 5)
    expect(db.pragma('user_version', { simple: true })).toBe(5)
    expect(
      db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all('ann_rating'),
    ).toEqual(REVIEW_INDEXES.ann_rating)
    expect(rows()).toEqual(before.rows)
    expect([null, 1, 2, 3].map(seek)).toEqual(before.seeks)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })
})

describe('migration 006 (ann_date ordered by id within a date)', () => {
  const tempDir = useTempDir()

  it('keeps every annotation and finds the same rows for a date range', () => {
    const { db, path } = projectAt(5, tempDir(), 6)
    const rows = () => db.prepare('SELECT * FROM annotations ORDER BY id').all()
    const [lo, hi] = db
      .prepare('SELECT min(submitted_at), max(submitted_at) FROM annotations')
      .raw()
      .get() as [number, number]
    const seek = () =>
      db
        .prepare(
          `SELECT id FROM annotations INDEXED BY ann_date
           WHERE submitted_at >= ? AND submitted_at < ? ORDER BY id`,
        )
        .pluck()
        .all(lo + (hi - lo) / 4, hi - (hi - lo) / 4)
    const before = { rows: rows(), seek: seek() }
    expect(before.seek.length).toBeGreaterThan(0)

    migrate(db, path, 6)
    expect(
      db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all('ann_date'),
    ).toEqual(REVIEW_INDEXES.ann_date)
    expect(rows()).toEqual(before.rows)
    expect(seek()).toEqual(before.seek)
    // Within one date the index now lists annotations by id.
    const walk = db
      .prepare(
        'SELECT submitted_at, id FROM annotations INDEXED BY ann_date WHERE submitted_at >= 0',
      )
      .raw()
      .all() as [number, number][]
    expect(walk).toEqual([...walk].sort((a, b) => a[0] - b[0] || a[1] - b[1]))
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })
})
