import { unlinkSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { runPull } from '../../src/main/mturk/pullRun'
import { faultMix, seedDemo } from '../../standin/index'
import { rateWorker } from '../../src/main/ratings/rate'
import {
  ALL,
  NEW,
  count,
  expectResumedWhole,
  expectInterrupted,
  pullCancelledAfter,
  useConnections,
  useProject,
} from './project-helpers'
import { movableClock, useStandin } from './standin-helpers'

const start = useStandin()
const project = useProject()
const connectTo = useConnections()

/** What a pull leaves in the project, without the ids and times that differ between runs. */
function contents(db: Db): unknown[] {
  return [
    db
      .prepare(
        `SELECT s.source_key, s.assignment_id, w.external_id AS worker, st.external_id AS story,
          s.sentence_index, s.submitted_at, s.accepted_at, s.file_rating, s.flags, s.status, s.raw
        FROM submissions AS s LEFT JOIN workers AS w ON w.id = s.worker_id
          LEFT JOIN stories AS st ON st.id = s.story_id ORDER BY s.source_key`,
      )
      .all(),
    db
      .prepare(
        `SELECT s.source_key, a.dimension, a.flags, a.rating, t.specific_nl, t.specific_structured,
          t.general_nl, t.general_structured
        FROM annotations AS a JOIN submissions AS s ON s.id = a.submission_id
          JOIN annotation_texts AS t ON t.annotation_id = a.id ORDER BY s.source_key, a.dimension`,
      )
      .all(),
    db
      .prepare(
        `SELECT assignment_id, hit_id, worker_external_id, status, auto_approval_at, reviewed_at
        FROM mturk_assignments ORDER BY assignment_id`,
      )
      .all(),
  ]
}

describe('a pull on a store thread', () => {
  it('stores what a pull on one thread stores, every assignment once under faults', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 40, assignmentsPerHit: 30, brokenEvery: 97 })
    const here = project().db
    const ctx = connectTo(standin)
    const options = { endpoint: ctx.url, author: 't', storeOnThread: false } as const
    expect(await runPull(here, ctx, ALL, options)).toMatchObject({ new: 1200 })

    standin.setFaults(faultMix(0.2, 7, 1))
    const { db } = project()
    const result = await runPull(db, ctx, ALL, {
      ...options,
      storeOnThread: true,
      commit: { commitAssignments: 100 },
    })
    expect(result).toMatchObject({ hits: 40, new: 1200, updated: 0, resumed: false })
    expect(standin.state.requests.filter((r) => r.fault).length).toBeGreaterThan(5)
    expect(contents(db)).toEqual(contents(here))
    expect(count(db, 'SELECT count(*) FROM search_backlog')).toBe(0)
    expect(db.prepare('SELECT kind FROM change_sets').pluck().all()).toEqual(['mturk'])
    expect(db.prepare('SELECT state FROM mturk_pulls').pluck().all()).toEqual(['done'])
  })

  it('keeps a rating made on the app connection during the pull, and the pull after it', async () => {
    const clock = movableClock()
    const { standin } = await start({ clock: clock.now })
    const seed = seedDemo(standin.state, { hits: 20, assignmentsPerHit: 20 })
    // One page every 100 ms for 2 s: pages still arrive well after the first commit, even when
    // a busy machine starts the store thread or answers the commit late, so the pull commits
    // after the rating too.
    standin.setFaults({ slow: 1, delayMs: 100, operations: ['ListAssignmentsForHIT'] })
    const { db } = project()
    const ctx = connectTo(standin)
    const worker = seed.assignments[0]?.WorkerId ?? ''
    let rated = false
    const result = await runPull(db, ctx, ALL, {
      endpoint: ctx.url,
      author: 't',
      now: clock.now,
      storeOnThread: true,
      concurrency: 1,
      commit: { commitAssignments: 50 },
      onCommit: () => {
        const id = db.prepare('SELECT id FROM workers WHERE external_id = ?').pluck().get(worker)
        if (rated || typeof id !== 'number') return
        rated = true
        rateWorker(db, {
          workerId: id,
          value: 3,
          from: Math.floor(clock.now() / 1000) - 400 * 86_400,
          author: 't',
          preview: false,
        })
      },
    })
    expect(result.new).toBe(400)
    expect(rated).toBe(true)
    // Pages committed after the rating got it too; those before were rated by it.
    const ratings = db
      .prepare(
        'SELECT DISTINCT a.rating FROM annotations AS a JOIN workers AS w ON w.id = a.worker_id WHERE w.external_id = ?',
      )
      .pluck()
      .all(worker)
    expect(ratings).toEqual([3])
    expect(db.prepare('SELECT kind FROM change_sets ORDER BY id').pluck().all()).toEqual([
      'mturk',
      expect.any(String) as unknown,
      'mturk',
    ])
    expect(
      await runPull(db, ctx, NEW, { endpoint: ctx.url, author: 't', now: clock.now }),
    ).toMatchObject({ new: 0 })
  })
})

describe('a cancelled pull', () => {
  it.each([false, true])(
    'keeps what was committed and resumes without duplicates or refetching finished HITs (on a store thread: %s)',
    async (onThread) => {
      const { standin } = await start()
      seedDemo(standin.state, { hits: 12, assignmentsPerHit: 150 })
      const { db } = project()
      // The pages queued before the cancel are committed as it stops.
      await pullCancelledAfter(db, (signal) => connectTo(standin, signal), 7, {
        storeOnThread: onThread,
        commit: { commitAssignments: 100 },
      })
      const { stored, finished } = expectInterrupted(db, { state: 'cancelled', fewerThan: 1800 })

      const before = standin.state.requests.length
      const again = connectTo(standin)
      const result = await runPull(db, again, ALL, {
        endpoint: again.url,
        author: 't',
        storeOnThread: onThread,
      })
      expect(result).toMatchObject({ resumed: true, new: 1800 - stored })
      expectResumedWhole(db, standin, { before, finished, total: 1800 })
    },
  )
})

describe('a store thread that fails', () => {
  it('fails the pull with its error, and the pull is recorded as failed', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 4, assignmentsPerHit: 10 })
    const { db, path } = project()
    const ctx = connectTo(standin)
    // The thread opens the project by its path, which no longer leads to it.
    unlinkSync(path)
    await expect(
      runPull(db, ctx, ALL, { endpoint: ctx.url, author: 't', storeOnThread: true }),
    ).rejects.toThrow(/no such project file/)
    expect(db.prepare('SELECT state FROM mturk_pulls').pluck().all()).toEqual(['failed'])
    expect(count(db, 'SELECT count(*) FROM submissions')).toBe(0)
  })
})
