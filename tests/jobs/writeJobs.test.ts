import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { type Db, openProject } from '../../src/main/db/connection'
import { CancelledError } from '../../src/main/jobs/cancel'
import type { WriteProgress } from '../../src/main/jobs/writeHooks'
import { runWriteJob } from '../../src/main/tasks/writeJob'
import { QUIET } from '../../src/main/jobs/writeHooks'
import { type RateRequest, runWrite } from '../../src/main/tasks/writeTasks'
import { localAuthor } from '../../src/main/ratings/author'
import { indexSearchText } from '../../src/main/search/indexer'
import { Session } from '../../src/main/session'
import type { RatingResult } from '../../src/shared/contract/ratings'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'
import { DAY, day, expectConsistent, importSubmissions, newProject } from '../ratings/helpers'

/** 1,600 submissions of 3 dimensions by 16 workers over 40 days, with file ratings: 4,800 annotations. */
function generatedProject(dir: string): string {
  const db = newProject(dir)
  const ratings = [-1, 1, 2, 3]
  importSubmissions(
    db,
    Array.from({ length: 1_600 }, (_, i) => ({
      worker: `W${i % 16}`,
      at: day('2019-09-01') + Math.floor(i / 40) * DAY + (i % 40) * 60,
      fileRating: ratings[(i + Math.floor(i / 400)) % 4] ?? null,
      dimensions: 3,
    })),
  )
  indexSearchText(db)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return join(dir, 'p.winnow')
}

/** Everything a rating change writes, without the moment it was recorded. */
function ratingState(db: Db): unknown {
  return {
    annotations: db.prepare('SELECT id, rating, rating_source FROM annotations ORDER BY id').all(),
    items: db
      .prepare(
        'SELECT id, annotation_id, value, author, note, change_set_id FROM item_ratings ORDER BY id',
      )
      .all(),
    retractions: db
      .prepare(
        'SELECT id, target, rating_id, retracted, change_set_id FROM rating_retractions ORDER BY id',
      )
      .all(),
    changeSets: db
      .prepare('SELECT id, kind, author, description, reverts FROM change_sets ORDER BY id')
      .all(),
    effects: db
      .prepare('SELECT change_set_id, changed, transitions FROM rating_effects ORDER BY 1')
      .all(),
  }
}

const everything: RateRequest = {
  target: { kind: 'query', filter: { dimensions: [1, 3] } },
  value: 3,
  // The author the API writes, so that both ways write the same rows.
  author: localAuthor(),
}

function openSession(path: string): Session {
  const session = new Session('serve', () => undefined)
  session.open(path)
  return session
}

async function call<T>(session: Session, name: string, args: unknown): Promise<T> {
  const outcome = await dispatch(name, args, { session })
  if (!outcome.ok) throw Object.assign(new Error(outcome.error.message), { info: outcome.error })
  return outcome.value as T
}

describe('long writes as jobs', () => {
  const tempDir = useTempDir()

  it('a bulk rating cancelled mid-way leaves the ratings as they were', () => {
    const path = generatedProject(tempDir())
    withProject(path, (db) => {
      const before = ratingState(db)
      const steps: WriteProgress[] = []
      // Cancelled once its item ratings are written, while it updates the effective ratings.
      const hooks = {
        progress: (p: WriteProgress) => steps.push(p),
        cancelled: () => steps.some((s) => s.detail === 'Updating effective ratings'),
      }
      expect(() => runWrite(db, 'rate', everything, hooks)).toThrow(CancelledError)
      expect(steps.map((s) => s.detail)).toContain('Recording item ratings')
      expect(ratingState(db)).toEqual(before)
      expectConsistent(db)
    })
  })

  it('a bulk rating cancelled on its worker thread changes nothing', async () => {
    const path = generatedProject(tempDir())
    const before = withProject(path, ratingState)
    const session = openSession(path)
    // Another program holds the write lock, so the job's thread waits at its first step.
    const holder = openProject(path)
    holder.exec('BEGIN IMMEDIATE')
    const { progress, result } = runWriteJob(session, {
      kind: 'rate',
      request: everything,
      title: 'Rating',
    })
    const outcome = result.then(
      () => 'written',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(session.jobs.cancel(progress.id)).toBe(true)
    holder.exec('ROLLBACK')
    holder.close()
    expect(await outcome).toBe('Cancelled; nothing was changed.')
    expect(session.jobs.get(progress.id)?.state).toBe('cancelled')
    session.close()
    expect(withProject(path, ratingState)).toEqual(before)
  })

  it('a bulk rating (previewed), its revert and redo as jobs equal the same writes made here', async () => {
    const dir = tempDir()
    const here = generatedProject(dir)
    const onThread = join(dir, 'thread.winnow')
    copyFileSync(here, onThread)

    const expected = withProject(here, (db) => {
      const rated = runWrite(db, 'rate', everything, QUIET)
      const afterRating = ratingState(db)
      const reverted = runWrite(
        db,
        'revert',
        { changeSetId: rated.changeSet!, author: localAuthor() },
        QUIET,
      )
      return { rated, afterRating, reverted, afterRevert: ratingState(db) }
    })
    expect(expected.rated.rows).toBe(3_200)
    expect(expected.rated.changed).toBeGreaterThan(2_000)

    const session = openSession(onThread)
    const jobsBefore = session.jobs.list().length
    const preview = await call<RatingResult>(session, 'ratings.rateQuery', {
      filter: { dimensions: [1, 3] },
      rating: 3,
      preview: true,
    })
    expect(preview).toMatchObject({
      preview: true,
      changeSet: null,
      changed: expected.rated.changed,
    })
    const rated = await call<RatingResult>(session, 'ratings.rateQuery', {
      filter: { dimensions: [1, 3] },
      rating: 3,
    })
    expect(rated).toEqual(expected.rated)
    expect(withProject(onThread, ratingState)).toEqual(expected.afterRating)
    const reverted = await call<RatingResult>(session, 'ratings.revert', {
      changeSetId: rated.changeSet,
    })
    expect(reverted).toEqual(expected.reverted)
    expect(withProject(onThread, ratingState)).toEqual(expected.afterRevert)
    const jobs = session.jobs.list().slice(jobsBefore)
    expect(jobs.map((j) => [j.kind, j.state])).toEqual([
      ['rate', 'succeeded'],
      ['rate', 'succeeded'],
      ['revert', 'succeeded'],
    ])
    expect(jobs[0]?.title).toMatch(/^Previewing/)
    expect(jobs[1]?.detail).toMatch(/^Change set \d+: [\d,]+ annotations changed rating$/)

    // Redo re-applies the bulk rating (a revert of the revert), again on the thread.
    const redone = await call<RatingResult | null>(session, 'ratings.redo', {})
    expect(redone?.changed).toBe(expected.rated.changed)
    expect(session.jobs.list().at(-1)?.kind).toBe('revert')
    withProject(onThread, expectConsistent)
    session.close()
  })

  it('recomputes every effective rating as a job', async () => {
    const path = generatedProject(tempDir())
    const right = withProject(path, ratingState)
    withProject(path, (db) => db.exec('UPDATE annotations SET rating = NULL, rating_source = 0'))
    const session = openSession(path)
    const { changed } = await call<{ changed: number }>(session, 'ratings.recompute', {})
    expect(changed).toBeGreaterThan(4_000)
    expect(session.jobs.list().map((j) => [j.kind, j.state])).toEqual([['recompute', 'succeeded']])
    session.close()
    expect(withProject(path, ratingState)).toEqual(right)
    expect(await recomputeAgain(path)).toBe(0)
  })

  it('keeps a handful of rows on the calling thread', async () => {
    const path = generatedProject(tempDir())
    const session = openSession(path)
    const result = await call<RatingResult>(session, 'ratings.rateItems', {
      annotationIds: withProject(path, (db) =>
        db.prepare('SELECT id FROM annotations ORDER BY id LIMIT 5').pluck().all(),
      ),
      rating: 0,
    })
    expect(result.rows).toBe(5)
    expect(session.jobs.list()).toEqual([])
    session.close()
  })
})

async function recomputeAgain(path: string): Promise<number> {
  const session = openSession(path)
  try {
    return (await call<{ changed: number }>(session, 'ratings.recompute', {})).changed
  } finally {
    session.close()
  }
}
