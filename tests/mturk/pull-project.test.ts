import { describe, expect, it } from 'vitest'
import { UserError } from '../../src/shared/contract/errors'
import { SubmissionFlag } from '../../src/shared/glucose/flags'
import { hitRows } from '../../src/main/db/queries/mturk/hits'
import { runPull } from '../../src/main/mturk/pullRun'
import { faultMix, seedDemo } from '../../standin/index'
import { DAY_MS } from '../../standin/state'
import { rateWorker } from '../../src/main/ratings/rate'
import {
  ALL,
  NEW,
  assignmentRequests,
  count,
  pullCancelledAfter,
  useConnections,
  useProject,
} from './project-helpers'
import { movableClock, useStandin } from './standin-helpers'

const start = useStandin()
const project = useProject()
const connectTo = useConnections()

describe('pulling into a project', () => {
  it('stores every assignment exactly once under 20% injected faults (50 HITs × 9)', async () => {
    const { standin } = await start()
    const seed = seedDemo(standin.state, { hits: 50, assignmentsPerHit: 9, brokenEvery: 97 })
    standin.setFaults(faultMix(0.2, 42, 1))
    const { db } = project()
    const ctx = connectTo(standin)
    const result = await runPull(db, ctx, ALL, { endpoint: ctx.url, author: 'test' })

    expect(result).toMatchObject({ hits: 50, new: 450, updated: 0, resumed: false })
    expect(standin.state.requests.filter((r) => r.fault).length).toBeGreaterThan(5)
    expect(count(db, 'SELECT count(*) FROM submissions')).toBe(450)
    expect(count(db, 'SELECT count(DISTINCT assignment_id) FROM submissions')).toBe(450)
    expect(count(db, 'SELECT count(*) FROM mturk_assignments')).toBe(450)
    // Statuses, raw answers and times are the service's.
    for (const a of seed.assignments) {
      const row = db
        .prepare(
          'SELECT status, raw, submitted_at AS s, accepted_at AS a FROM submissions WHERE assignment_id = ?',
        )
        .get(a.AssignmentId) as { status: string; raw: string; s: number; a: number }
      expect(row.status).toBe(a.AssignmentStatus)
      expect(row.raw).toBe(a.Answer)
      expect(row.s).toBe(Math.floor(a.SubmitTime / 1000))
      expect(row.a).toBe(Math.floor(a.AcceptTime / 1000))
    }
    // The truncated answers are kept, flagged, without a story or annotations.
    const broken = db
      .prepare('SELECT story_id, flags FROM submissions WHERE flags & ? != 0')
      .all(SubmissionFlag.AnswerUnparsed) as { story_id: number | null }[]
    expect(broken).toHaveLength(4)
    expect(broken.every((b) => b.story_id === null)).toBe(true)
    expect(count(db, "SELECT count(*) FROM stories WHERE external_id = ''")).toBe(0)
    expect(count(db, 'SELECT count(*) FROM annotations')).toBeGreaterThan(450 * 2 - 10)
    expect(count(db, 'SELECT count(*) FROM search_backlog')).toBe(0) // indexed when the pull ends
    // One change set, of kind mturk.
    expect(db.prepare('SELECT kind, description FROM change_sets').all()).toEqual([
      { kind: 'mturk', description: expect.stringContaining('450 submissions') as unknown },
    ])

    // Pulling everything again adds nothing.
    standin.setFaults({})
    const again = await runPull(db, ctx, ALL, { endpoint: ctx.url, author: 'test' })
    expect(again).toMatchObject({ assignments: 450, new: 0, updated: 0 })
    expect(count(db, 'SELECT count(*) FROM submissions')).toBe(450)
  })

  it('commits pages in groups, each with its checkpoints, and indexes the text at the end', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 30, assignmentsPerHit: 5, brokenEvery: 0 })
    const { db } = project()
    const ctx = connectTo(standin)
    const seen: { pages: number; stored: number; done: number; backlog: number }[] = []
    let pages = 0
    const result = await runPull(db, ctx, ALL, {
      endpoint: ctx.url,
      author: 'test',
      commit: { commitAssignments: 50, commitAfterMs: 60_000 },
      onPage: () => pages++,
      onCommit: () =>
        seen.push({
          pages,
          stored: count(db, 'SELECT count(*) FROM submissions'),
          done: count(db, 'SELECT count(*) FROM mturk_checkpoints WHERE done = 1'),
          backlog: count(db, 'SELECT count(*) FROM search_backlog'),
        }),
    })
    expect(result.new).toBe(150)
    // Ten pages of five per commit; a page's HIT is checkpointed done in the commit that stores it.
    expect(seen.map(({ pages, stored, done }) => ({ pages, stored, done }))).toEqual([
      { pages: 10, stored: 50, done: 10 },
      { pages: 20, stored: 100, done: 20 },
      { pages: 30, stored: 150, done: 30 },
    ])
    expect(seen.every((s) => s.backlog > 0)).toBe(true)
    expect(count(db, 'SELECT count(*) FROM search_backlog')).toBe(0)
    expect(
      count(db, "SELECT count(*) FROM annotation_search WHERE annotation_search MATCH 'the'"),
    ).toBeGreaterThan(0)
  })

  it('starts a HIT over when its checkpoint token is no longer accepted', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 2, assignmentsPerHit: 250 })
    const { db } = project()
    await pullCancelledAfter(db, (signal) => connectTo(standin, signal), 1, { concurrency: 1 })
    // The service forgot the token (a resume days later).
    db.prepare(
      "UPDATE mturk_checkpoints SET next_token = 'eyJzIjoic3RhbGUiLCJvIjoxMDB9' WHERE done = 0 AND next_token IS NOT NULL",
    ).run()
    const again = connectTo(standin)
    const result = await runPull(db, again, ALL, { endpoint: again.url, author: 't' })
    expect(result.resumed).toBe(true)
    expect(count(db, 'SELECT count(*) FROM submissions')).toBe(500)
    expect(standin.state.requests.some((r) => r.errorType === 'ParameterValidationError')).toBe(
      true,
    )
  })

  it('"pull new" fetches only HITs with new work or due auto-approvals, and updates statuses', async () => {
    const clock = movableClock()
    const { standin } = await start({ clock: clock.now })
    const seed = seedDemo(standin.state, { hits: 10, assignmentsPerHit: 5 })
    // Unreviewed work waits a week for auto-approval, except one assignment due in an hour.
    const submitted = seed.assignments.filter((a) => a.AssignmentStatus === 'Submitted')
    for (const a of submitted) a.AutoApprovalTime = clock.now() + 7 * DAY_MS
    const due = submitted[0]
    if (!due) throw new Error('the demo has no Submitted work')
    due.AutoApprovalTime = clock.now() + 3_600_000
    const { db } = project()
    const ctx = connectTo(standin)
    const options = { endpoint: ctx.url, author: 't', now: clock.now }
    await runPull(db, ctx, ALL, options)
    expect(count(db, 'SELECT count(*) FROM submissions')).toBe(50)

    // Nothing changed: no HIT is fetched.
    let mark = standin.state.requests.length
    expect(await runPull(db, ctx, NEW, options)).toMatchObject({
      hits: 10,
      skipped: 10,
      assignments: 0,
    })
    expect(assignmentRequests(standin, mark)).toEqual([])

    // One new submission on HIT 3; HIT of `due` auto-approves.
    const target = seed.hits[3]
    if (!target) throw new Error('no HIT 3')
    const fresh = standin.state.addAssignment({
      HITId: target.HITId,
      WorkerId: 'ANEWWORKER1',
      Answer: seed.assignments.find((a) => a.HITId === target.HITId)?.Answer ?? '',
    })
    target.MaxAssignments += 1
    clock.advance(2 * 3_600_000)
    mark = standin.state.requests.length
    const result = await runPull(db, ctx, NEW, options)
    expect(result).toMatchObject({ new: 1, updated: 1 })
    expect(new Set(assignmentRequests(standin, mark))).toEqual(new Set([target.HITId, due.HITId]))
    expect(
      db
        .prepare('SELECT status FROM submissions WHERE assignment_id = ?')
        .pluck()
        .get(due.AssignmentId),
    ).toBe('Approved')
    expect(
      db
        .prepare('SELECT status FROM submissions WHERE assignment_id = ?')
        .pluck()
        .get(fresh.AssignmentId),
    ).toBe('Submitted')
  })

  it('gives pulled annotations the worker rating in force, like an import', async () => {
    const clock = movableClock()
    const { standin } = await start({ clock: clock.now })
    const seed = seedDemo(standin.state, { hits: 3, assignmentsPerHit: 3 })
    const { db } = project()
    const ctx = connectTo(standin)
    const options = { endpoint: ctx.url, author: 't', now: clock.now }
    await runPull(db, ctx, ALL, options)
    const worker = seed.assignments[0]?.WorkerId ?? ''
    const workerRow = db
      .prepare('SELECT id FROM workers WHERE external_id = ?')
      .pluck()
      .get(worker) as number
    rateWorker(db, {
      workerId: workerRow,
      value: 3,
      from: Math.floor(clock.now() / 1000) - 400 * 86_400,
      author: 't',
      preview: false,
    })
    const hit = seed.hits[1]
    if (!hit) throw new Error('no HIT')
    standin.state.addAssignment({
      HITId: hit.HITId,
      WorkerId: worker,
      Answer: seed.assignments[3]?.Answer ?? '',
    })
    hit.MaxAssignments += 1
    const result = await runPull(db, ctx, NEW, options)
    expect(result.new).toBe(1)
    const ratings = db
      .prepare('SELECT DISTINCT rating FROM annotations WHERE worker_id = ?')
      .pluck()
      .all(workerRow)
    expect(ratings).toEqual([3])
  })

  it('calls out HITs near disposal and marks disposed ones gone', async () => {
    const clock = movableClock()
    const { standin } = await start({ clock: clock.now })
    standin.state.addHIT({ Title: 'old', CreationTime: clock.now() - 115 * DAY_MS })
    standin.state.addHIT({ Title: 'young' })
    const { db } = project()
    const ctx = connectTo(standin)
    const result = await runPull(db, ctx, ALL, { endpoint: ctx.url, author: 't', now: clock.now })
    expect(result.nearDisposal).toBe(1)
    const rows = hitRows(db, Math.floor(clock.now() / 1000))
    expect(rows.map((r) => [r.title, r.nearDisposal, r.daysToDisposal])).toEqual([
      ['young', false, 120],
      ['old', true, 5],
    ])
    clock.advance(6 * DAY_MS)
    expect(
      (await runPull(db, ctx, NEW, { endpoint: ctx.url, author: 't', now: clock.now })).gone,
    ).toBe(1)
    expect(hitRows(db, Math.floor(clock.now() / 1000)).find((r) => r.title === 'old')?.gone).toBe(
      true,
    )
  })

  it('reports a failing service as a clear error', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 1, assignmentsPerHit: 1 })
    standin.setFaults({ serviceFault: 1 })
    const { db } = project()
    const ctx = connectTo(standin)
    const failed = runPull(db, ctx, ALL, { endpoint: ctx.url, author: 't' })
    await expect(failed).rejects.toBeInstanceOf(UserError)
    await expect(failed).rejects.toThrow(/MTurk request failed \(ServiceFault\)/)
  })
})
