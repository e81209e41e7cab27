import { beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { all } from '../../src/main/db/connection'
import { writeMany } from '../../src/main/db/queries/ratings/apply'
import { ratingAsOfSql } from '../../src/main/db/queries/ratings/asOf'
import { sql } from '../../src/main/db/sql'
import { pastAnnotations } from '../../src/main/ratings/asOf'
import { recomputeAll } from '../../src/main/ratings/effective'
import { rateSelection } from '../../src/main/ratings/rateTargets'
import { rateWorker } from '../../src/main/ratings/rate'
import { redo, revertChangeSet, undo, undoState } from '../../src/main/ratings/revert'
import { history } from '../../src/main/ratings/history'
import { useTempDir } from '../helpers/tmp'
import {
  DAY,
  asOfRatings,
  cached,
  day,
  expectConsistent,
  importSubmissions,
  newProject,
  ratingOf,
  workerId,
} from './helpers'

const who = { author: 'tester' }

describe('effective ratings over time', () => {
  const tempDir = useTempDir()
  let db: Db
  let w: number
  /** Annotation ids of submissions on Sep 1, Sep 10, Sep 20 (two annotations each). */
  let sep1: number[], sep10: number[], sep20: number[]

  beforeEach(() => {
    db = newProject(tempDir())
    const { annotations } = importSubmissions(db, [
      { worker: 'W1', at: day('2019-09-01') },
      { worker: 'W1', at: day('2019-09-10') },
      { worker: 'W1', at: day('2019-09-20') },
      { worker: 'W2', at: day('2019-09-10') },
    ])
    ;[sep1, sep10, sep20] = annotations as [number[], number[], number[]]
    w = workerId(db, 'W1')
    return () => db.close()
  })

  const rating = (ids: number[] | undefined) => ratingOf(db, ids?.[0] as number).rating

  it('applies a change committed on the same day as a submission to it', () => {
    rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-10') })
    expect([rating(sep1), rating(sep10), rating(sep20)]).toEqual([null, 2, 2])
    expect(ratingOf(db, sep10[0] as number).source).toBe(1)
    expectConsistent(db)
  })

  it('lets the later recorded of two changes on one day win', () => {
    rateWorker(db, { ...who, workerId: w, value: 3, from: day('2019-09-10') })
    const second = rateWorker(db, { ...who, workerId: w, value: 1, from: day('2019-09-10') })
    expect([rating(sep1), rating(sep10), rating(sep20)]).toEqual([null, 1, 1])
    expect(second.transitions).toEqual([{ from: 3, to: 1, count: 4 }])
    expectConsistent(db)
  })

  it('rates everything when the commit date is before the first submission', () => {
    rateWorker(db, { ...who, workerId: w, value: -1, from: day('2019-01-01') })
    expect([rating(sep1), rating(sep10), rating(sep20)]).toEqual([-1, -1, -1])
    const other = db
      .prepare('SELECT count(*) FROM annotations WHERE rating IS NOT NULL AND worker_id != ?')
      .pluck()
      .get(w)
    expect(other).toBe(0)
  })

  it('touches only the rows between the commit date and the next change', () => {
    rateWorker(db, { ...who, workerId: w, value: -1, from: day('2019-08-01') })
    rateWorker(db, { ...who, workerId: w, value: 3, from: day('2019-09-15') })
    const mid = rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-05') })
    expect(mid.changed).toBe(2)
    expect(mid.transitions).toEqual([{ from: -1, to: 2, count: 2 }])
    expect([rating(sep1), rating(sep10), rating(sep20)]).toEqual([-1, 2, 3])
  })

  it('puts item ratings over the worker timeline, and clearing them falls back', () => {
    rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-01') })
    rateSelection(
      db,
      { annotationIds: [sep10[0] as number], submissionIds: [] },
      { ...who, value: 3 },
    )
    rateWorker(db, { ...who, workerId: w, value: 0, from: day('2019-09-05') })
    expect(ratingOf(db, sep10[0] as number)).toEqual({ rating: 3, source: 2 })
    expect(ratingOf(db, sep10[1] as number)).toEqual({ rating: 0, source: 1 })
    const cleared = rateSelection(
      db,
      { annotationIds: [sep10[0] as number], submissionIds: [] },
      { ...who, value: null },
    )
    expect(cleared.transitions).toEqual([{ from: 3, to: 0, count: 1 }])
    expect(ratingOf(db, sep10[0] as number)).toEqual({ rating: 0, source: 1 })
    expectConsistent(db)
  })

  it('rates a whole submission as items', () => {
    const sub = db
      .prepare('SELECT submission_id FROM annotations WHERE id = ?')
      .pluck()
      .get(sep20[0]) as number
    const result = rateSelection(
      db,
      { annotationIds: [], submissionIds: [sub] },
      { ...who, value: 1.5 },
    )
    expect(result).toMatchObject({
      changed: 2,
      rows: 2,
      transitions: [{ from: null, to: 1.5, count: 2 }],
    })
    expect(sep20.map((id) => ratingOf(db, id))).toEqual([
      { rating: 1.5, source: 2 },
      { rating: 1.5, source: 2 },
    ])
    const one = rateSelection(
      db,
      { annotationIds: [sep20[0] as number], submissionIds: [] },
      { ...who, value: 3 },
    )
    // The history counts the way people read: one annotation, two annotations.
    const described = (id: number | null | undefined) =>
      db.prepare('SELECT description FROM change_sets WHERE id = ?').pluck().get(id)
    expect(described(result.changeSet)).toBe(`Rated 1.5: submission ${sub} (2 annotations)`)
    expect(described(one.changeSet)).toBe(`Rated 3: annotation ${sep20[0]} (1 annotation)`)
  })

  it('previews exactly what applying does, writing nothing', () => {
    rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-01') })
    const before = cached(db)
    const changeSets = history(db).length
    const preview = rateWorker(db, {
      ...who,
      workerId: w,
      value: 3,
      from: day('2019-09-10'),
      preview: true,
    })
    expect(cached(db)).toEqual(before)
    expect(history(db)).toHaveLength(changeSets)
    const applied = rateWorker(db, { ...who, workerId: w, value: 3, from: day('2019-09-10') })
    expect(preview).toMatchObject({
      preview: true,
      changeSet: null,
      changed: applied.changed,
      transitions: applied.transitions,
    })
    const revertPreview = revertChangeSet(db, applied.changeSet as number, {
      ...who,
      preview: true,
    })
    expect(revertPreview.transitions).toEqual([{ from: 3, to: 2, count: 4 }])
    expect(rating(sep20)).toBe(3)
  })

  it('restores earlier ratings exactly on revert, and a revert of the revert re-applies', () => {
    rateWorker(db, { ...who, workerId: w, value: -1, from: day('2019-08-01') })
    rateSelection(
      db,
      { annotationIds: [sep1[0] as number], submissionIds: [] },
      { ...who, value: 3 },
    )
    const before = cached(db)
    const change = rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-05') })
    const items = rateSelection(
      db,
      { annotationIds: sep10, submissionIds: [] },
      { ...who, value: 1 },
    )
    const after = cached(db)
    const r1 = revertChangeSet(db, items.changeSet as number, who)
    const r2 = revertChangeSet(db, change.changeSet as number, who)
    expect(cached(db)).toEqual(before)
    expectConsistent(db)
    const r3 = revertChangeSet(db, r2.changeSet as number, who)
    const r4 = revertChangeSet(db, r1.changeSet as number, who)
    expect(cached(db)).toEqual(after)
    expectConsistent(db)
    expect(() => revertChangeSet(db, r1.changeSet as number, who)).toThrowError(/already reverted/)
    const listed = new Map(history(db).map((c) => [c.id, c]))
    expect(listed.get(change.changeSet as number)?.revertedBy).toBeNull()
    expect(listed.get(r2.changeSet as number)?.revertedBy).toBe(r3.changeSet)
    expect(listed.get(r1.changeSet as number)?.revertedBy).toBe(r4.changeSet)
    // Reverting the original again retracts it once more.
    revertChangeSet(db, change.changeSet as number, who)
    expect(rating(sep20)).toBe(-1)
    expectConsistent(db)
  })

  it('undoes and redoes manual and bulk change sets in order', () => {
    const a = rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-01') })
    const b = rateSelection(db, { annotationIds: sep20, submissionIds: [] }, { ...who, value: 3 })
    expect(undoState(db).undo?.id).toBe(b.changeSet)
    expect(undoState(db).redo).toBeNull()
    undo(db, 'tester')
    expect(rating(sep20)).toBe(2)
    undo(db, 'tester')
    expect(rating(sep20)).toBeNull()
    expect(undoState(db)).toMatchObject({ undo: null, redo: { id: a.changeSet } })
    redo(db, 'tester')
    expect(rating(sep20)).toBe(2)
    expect(undoState(db).redo?.id).toBe(b.changeSet)
    redo(db, 'tester')
    expect(rating(sep20)).toBe(3)
    expect(redo(db, 'tester')).toBeNull()
    undo(db, 'tester')
    rateWorker(db, { ...who, workerId: w, value: 0, from: day('2019-09-01') })
    // A new change clears what could be redone.
    expect(undoState(db).redo).toBeNull()
    expectConsistent(db)
  })

  it('names an undo and a redo by the change they act on, not by the reverts before them', () => {
    const a = rateSelection(db, { annotationIds: sep20, submissionIds: [] }, { ...who, value: 3 })
    const original = history(db).find((c) => c.id === a.changeSet)
    undo(db, 'tester')
    redo(db, 'tester')
    undo(db, 'tester')
    const [undoAgain, redone, undone] = history(db)
    expect(undone).toMatchObject({
      kind: 'revert',
      description: `Undo #${a.changeSet}: ${original?.description}`,
      revertOf: { id: a.changeSet, redo: false },
    })
    expect(redone).toMatchObject({
      description: `Redo #${a.changeSet}: ${original?.description}`,
      revertOf: { id: a.changeSet, redo: true },
    })
    expect(undoAgain?.description).toBe(`Undo #${a.changeSet}: ${original?.description}`)
    expect(original?.revertOf).toBeNull()
  })

  it('shows the ratings as they stood before and after each change', () => {
    const moments: { at: number; ratings: Map<number, number | null> }[] = []
    const remember = (at: number) => moments.push({ at, ratings: cached(db) })
    remember(Date.now() - 1)
    const steps = [
      () => rateWorker(db, { ...who, workerId: w, value: -1, from: day('2019-08-01') }),
      () => rateWorker(db, { ...who, workerId: w, value: 3, from: day('2019-09-10') }),
      () => rateSelection(db, { annotationIds: sep20, submissionIds: [] }, { ...who, value: 1 }),
      () => rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-10') }),
    ]
    const results = steps.map((step) => {
      const result = step()
      const at = history(db).find((c) => c.id === result.changeSet)?.at as number
      remember(at)
      return { result, at }
    })
    const undone = revertChangeSet(db, results[2]?.result.changeSet as number, who)
    remember(history(db).find((c) => c.id === undone.changeSet)?.at as number)
    const relation = (at: number) => pastAnnotations(db, at)?.text ?? 'annotations'
    for (const [i, m] of moments.entries()) {
      expect(asOfRatings(db, relation(m.at)), `after step ${i}`).toEqual(m.ratings)
      // One millisecond before a change, the state before it.
      if (i > 0) expect(asOfRatings(db, relation(m.at - 1))).toEqual(moments[i - 1]?.ratings)
    }
    expect(pastAnnotations(db, Date.now() + DAY * 1000)).toBeNull()
  })

  it('recomputes everything from the rating tables', () => {
    rateWorker(db, { ...who, workerId: w, value: 2, from: day('2019-09-05') })
    rateSelection(
      db,
      { annotationIds: [sep1[1] as number], submissionIds: [] },
      { ...who, value: -2 },
    )
    const good = cached(db)
    expect(recomputeAll(db)).toBe(0)
    db.exec('UPDATE annotations SET rating = 7, rating_source = 1')
    expect(recomputeAll(db)).toBe(good.size)
    expect(cached(db)).toEqual(good)
    expectConsistent(db)
    // The bulk path: rewrite by segment with the rating indexes rebuilt, in one transaction.
    const indexes = db
      .prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' ORDER BY name")
      .all()
    db.exec('UPDATE annotations SET rating = NULL, rating_source = 0')
    const rated = [...good.values()].filter((r) => r !== null).length
    expect(db.transaction(() => recomputeAll(db, { bulkFrom: 1 }))()).toBe(rated)
    expect(cached(db)).toEqual(good)
    expect(
      db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' ORDER BY name").all(),
    ).toEqual(indexes)
    expectConsistent(db)
    // Every row wrong, one of them still marked as item-rated though no item rating holds it.
    db.exec('UPDATE annotations SET rating = 7, rating_source = 1')
    const stale = [...good.keys()].find((id) => id !== sep1[1]) as number
    db.prepare('UPDATE annotations SET rating = -1, rating_source = 2 WHERE id = ?').run(stale)
    expect(db.transaction(() => recomputeAll(db, { bulkFrom: 1 }))()).toBe(good.size)
    expect(cached(db)).toEqual(good)
    expectConsistent(db)
  })

  it('refuses ratings off the scale and unknown workers', () => {
    expect(() =>
      rateWorker(db, { ...who, workerId: w, value: 2.5, from: day('2019-09-01') }),
    ).toThrowError(/not on this project's rating scale/)
    expect(() =>
      rateWorker(db, { ...who, workerId: 999, value: 2, from: day('2019-09-01') }),
    ).toThrowError(/No worker/)
    expect(() =>
      rateSelection(db, { annotationIds: [999_999], submissionIds: [] }, { ...who, value: 2 }),
    ).toThrowError(/No annotation 999999/)
  })
})

describe('the cache machinery', () => {
  const tempDir = useTempDir()

  it('repairs wrong sources and stale item ratings on recomputation', () => {
    const db = newProject(tempDir())
    const { annotations } = importSubmissions(db, [
      { worker: 'W', at: day('2019-09-01'), fileRating: 2 },
      { worker: 'W', at: day('2019-09-02'), fileRating: 2 },
    ])
    const [a, b] = annotations as [number[], number[]]
    rateSelection(db, { annotationIds: [a[0] as number], submissionIds: [] }, { ...who, value: 2 })
    const good = db.prepare('SELECT id, rating, rating_source FROM annotations ORDER BY id').all()
    db.prepare('UPDATE annotations SET rating_source = 1 WHERE id = ?').run(a[0])
    const cleared = rateSelection(
      db,
      { annotationIds: [b[0] as number], submissionIds: [] },
      { ...who, value: 3 },
    )
    revertChangeSet(db, cleared.changeSet as number, who)
    db.prepare('UPDATE annotations SET rating = 2, rating_source = 2 WHERE id = ?').run(b[0])
    expect(recomputeAll(db)).toBe(2)
    expect(
      db.prepare('SELECT id, rating, rating_source FROM annotations ORDER BY id').all(),
    ).toEqual(good)
    db.close()
  })

  it('rewrites rows without a worker or a time in the bulk pass, counting each row once', () => {
    const db = newProject(tempDir())
    importSubmissions(db, [
      { worker: 'W', at: day('2019-09-01'), fileRating: 2 },
      { worker: 'W', at: day('2019-09-03'), fileRating: 3 },
      { worker: 'W', at: null, fileRating: null },
      { worker: null, at: null, fileRating: null },
      { worker: null, at: null, fileRating: 1 },
    ])
    const good = db.prepare('SELECT id, rating, rating_source FROM annotations ORDER BY id').all()
    const total = good.length
    db.exec('UPDATE annotations SET rating = 7, rating_source = 1')
    expect(db.transaction(() => recomputeAll(db, { bulkFrom: 1 }))()).toBe(total)
    expect(
      db.prepare('SELECT id, rating, rating_source FROM annotations ORDER BY id').all(),
    ).toEqual(good)
    expectConsistent(db)
    db.close()
  })

  it('rebuilds the rating indexes around a large write and leaves them as they were', () => {
    const db = newProject(tempDir())
    importSubmissions(db, [{ worker: 'W', at: day('2019-09-01'), fileRating: 2, dimensions: 5 }])
    const indexes = () =>
      db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name").all()
    const before = indexes()
    const changed = db.transaction(() =>
      writeMany(db, 5, () => db.prepare('UPDATE annotations SET rating = 3').run().changes, 1),
    )()
    expect(changed).toBe(5)
    expect(indexes()).toEqual(before)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })

  it('gives other queries the rating as of a moment as a join and expressions', () => {
    const db = newProject(tempDir())
    const before = Date.now() - 1
    importSubmissions(db, [{ worker: 'W', at: day('2019-09-01'), fileRating: 2 }])
    const now = ratingAsOfSql(pastAnnotations(db, undefined))
    expect(now.join.text).toBe('')
    const then = ratingAsOfSql(pastAnnotations(db, before))
    const rows = all<{ rating: number | null }>(
      db,
      sql`SELECT ${then.rating} AS rating FROM annotations a ${then.join}`,
    )
    expect(rows.map((r) => r.rating)).toEqual([null, null])
    expect(() => ratingAsOfSql(null, 'a; DROP TABLE x')).toThrowError(/not an alias/)
    db.close()
  })
})
