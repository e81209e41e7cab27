import { describe, expect, it } from 'vitest'
import { workerActionEntries } from '../../src/main/db/queries/mturk/actions'
import { runPull } from '../../src/main/mturk/pullRun'
import { seedDemo } from '../../standin/index'
import {
  type ActionContext,
  approveAssignments,
  blockWorkers,
  cents,
  notifyWorkers,
  payBonuses,
  qualifyWorkers,
  rejectAssignments,
} from '../../src/main/mturk/workerActions'
import { ALL, count, useConnections, useProject } from './project-helpers'
import { useStandin } from './standin-helpers'

const start = useStandin()
const project = useProject()
const connectTo = useConnections()

async function pulled(hits = 2, perHit = 4) {
  const { standin } = await start()
  const seed = seedDemo(standin.state, { hits, assignmentsPerHit: perHit })
  const { db, path } = project()
  const ctx = connectTo(standin)
  await runPull(db, ctx, ALL, { endpoint: ctx.url, author: 't' })
  const ac: ActionContext = { db, ctx, endpoint: ctx.url, projectId: 'p-test', author: 't' }
  return { standin, seed, db, path, ac }
}

describe('worker actions', () => {
  it('pays a bonus retried under faults once, and records it once', async () => {
    const { standin, seed, db, ac } = await pulled()
    const a = seed.assignments[0]
    if (!a) throw new Error('no assignment')
    standin.setFaults({
      seed: 5,
      lostSuccess: 0.5,
      drop: 0.2,
      throttle: 0.2,
      operations: ['SendBonus'],
    })
    const item = { workerId: a.WorkerId, assignmentId: a.AssignmentId }
    const first = await payBonuses(ac, { items: [item], amount: '1.5', reason: 'Careful work' })
    const second = await payBonuses(ac, { items: [item], amount: '1.50', reason: 'Careful work' })
    expect(first).toMatchObject({ succeeded: 1, failed: 0 })
    expect(second).toMatchObject({ succeeded: 0, skipped: 1 })
    expect(second.entries.map((e) => e.id)).toEqual(first.entries.map((e) => e.id))
    expect(standin.state.bonuses).toHaveLength(1)
    expect(
      standin.state.requests.filter((r) => r.operation === 'SendBonus').length,
    ).toBeGreaterThan(1)
    expect(
      count(db, "SELECT count(*) FROM worker_actions WHERE action = 'bonus' AND error IS NULL"),
    ).toBe(1)
    const [entry] = workerActionEntries(db, a.WorkerId)
    expect(entry).toMatchObject({ action: 'bonus', assignmentId: a.AssignmentId, error: null })
    expect(entry?.request).toMatchObject({ BonusAmount: '1.50', Reason: 'Careful work' })
    expect(JSON.stringify(entry)).not.toMatch(/secret|AKID/i)
  })

  it('refuses bonuses whose total exceeds the balance, sending nothing', async () => {
    const { standin, seed, ac } = await pulled()
    standin.state.balanceCents = 100
    const items = seed.assignments
      .slice(0, 3)
      .map((a) => ({ workerId: a.WorkerId, assignmentId: a.AssignmentId }))
    await expect(payBonuses(ac, { items, amount: '0.40', reason: 'r' })).rejects.toThrow(
      /\$1\.20, more than the available balance of \$1\.00/,
    )
    expect(standin.state.requests.some((r) => r.operation === 'SendBonus')).toBe(false)
    expect(cents('0.1') * 3).toBe(30)
  })

  it('messages 250 workers in 3 recorded calls with per-worker failures', async () => {
    const { standin, seed, db, ac } = await pulled(1, 2)
    const hit = seed.hits[0]
    if (!hit) throw new Error('no HIT')
    const workers = Array.from({ length: 250 }, (_, i) => `AW${i}`)
    workers.forEach((w, i) =>
      standin.state.addAssignment({
        HITId: hit.HITId,
        WorkerId: w,
        AssignmentStatus: i % 50 === 0 ? 'Submitted' : 'Approved',
      }),
    )
    const outcome = await notifyWorkers(ac, {
      workerIds: workers,
      subject: 'New HITs',
      message: 'More stories are up.',
    })
    expect(standin.state.requests.filter((r) => r.operation === 'NotifyWorkers')).toHaveLength(3)
    expect(count(db, "SELECT count(*) FROM worker_actions WHERE action = 'notify'")).toBe(3)
    expect(outcome.entries.map((e) => e.workers)).toEqual([100, 100, 50])
    expect(outcome.failures.map((f) => f.workerId)).toEqual([
      'AW0',
      'AW50',
      'AW100',
      'AW150',
      'AW200',
    ])
    expect(workerActionEntries(db, 'AW50')[0]).toMatchObject({
      action: 'notify',
      failure: expect.stringContaining('HardFailure') as unknown,
    })
    expect(workerActionEntries(db, 'AW51')[0]).toMatchObject({ action: 'notify', failure: null })
  })

  it('approves and rejects, updating local statuses in one change set, and records refusals', async () => {
    const { seed, db, ac } = await pulled(3, 4)
    const submitted = seed.assignments
      .filter((a) => a.AssignmentStatus === 'Submitted')
      .map((a) => a.AssignmentId)
    const approved =
      seed.assignments.find((a) => a.AssignmentStatus === 'Approved')?.AssignmentId ?? ''
    const rejectedBefore =
      seed.assignments.find((a) => a.AssignmentStatus === 'Rejected')?.AssignmentId ?? ''
    expect(submitted.length).toBeGreaterThan(1)
    const outcome = await approveAssignments(ac, {
      assignmentIds: [...submitted.slice(1), approved, rejectedBefore],
    })
    // Approving approved work is done already (as after a lost success); rejected work is refused.
    expect(outcome).toMatchObject({ succeeded: submitted.length, failed: 1 })
    expect(outcome.failures[0]?.assignmentId).toBe(rejectedBefore)
    expect(outcome.entries.find((e) => e.assignmentId === approved)?.note).toMatch(
      /already approved/,
    )
    expect(outcome.changeSet).not.toBeNull()
    expect(
      db.prepare('SELECT kind, description FROM change_sets WHERE id = ?').get(outcome.changeSet),
    ).toEqual({
      kind: 'mturk',
      description: `Approved ${submitted.length - 1} assignments on MTurk`,
    })
    for (const id of submitted.slice(1)) {
      expect(
        db.prepare('SELECT status FROM submissions WHERE assignment_id = ?').pluck().get(id),
      ).toBe('Approved')
    }
    const rejected = await rejectAssignments(ac, {
      assignmentIds: submitted.slice(0, 1),
      feedback: 'Off topic',
    })
    expect(rejected.succeeded).toBe(1)
    expect(
      db
        .prepare('SELECT status FROM submissions WHERE assignment_id = ?')
        .pluck()
        .get(submitted[0]),
    ).toBe('Rejected')
  })

  it('qualifies and blocks per worker, each call recorded on the worker page', async () => {
    const { standin, seed, db, ac } = await pulled(1, 2)
    const typeId = seed.qualificationTypeIds[1] ?? ''
    const workers = seed.workers.slice(0, 3)
    expect(
      await qualifyWorkers(ac, { workerIds: workers, qualificationTypeId: typeId, value: 3 }),
    ).toMatchObject({ succeeded: 3 })
    expect(standin.state.qualification(typeId, workers[0] ?? '')?.IntegerValue).toBe(3)
    expect(
      await blockWorkers(ac, { workerIds: workers.slice(0, 1), reason: 'spam' }),
    ).toMatchObject({ succeeded: 1 })
    expect(workerActionEntries(db, workers[0] ?? '').map((e) => e.action)).toEqual([
      'block',
      'qualify',
    ])
  })
})
