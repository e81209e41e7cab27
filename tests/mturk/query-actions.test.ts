import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { environmentSecrets, sessionSecrets } from '../../src/main/mturk/credentials'
import { seedDemo } from '../../standin/index'
import { Session } from '../../src/main/session'
import type { Outcome } from '../../src/shared/contract/errors'
import type { ActionOutcome, QueryTargetCounts } from '../../src/shared/contract/mturk'
import { useTempDir } from '../helpers/tmp'
import { count } from './project-helpers'
import { CREDENTIALS, useStandin } from './standin-helpers'

const start = useStandin()
const tempDir = useTempDir()

/** A session in serve mode on a fresh project, connected to a seeded stand-in, everything pulled. */
async function pulledSession() {
  const { standin } = await start()
  const seed = seedDemo(standin.state, { hits: 8, assignmentsPerHit: 5, brokenEvery: 0 })
  const session = new Session('serve', () => undefined, {
    secrets: sessionSecrets(environmentSecrets({ env: {} })),
  })
  session.open(join(tempDir(), 'p.winnow'), { create: true })
  const call = (name: string, args: unknown = {}): Promise<Outcome<unknown>> =>
    dispatch(name, args, { session })
  const value = async <T>(name: string, args: unknown = {}): Promise<T> => {
    const outcome = await call(name, args)
    if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
    return outcome.value as T
  }
  await value('mturk.saveSettings', { endpoint: 'custom', customUrl: standin.url })
  await value('mturk.setCredentials', CREDENTIALS)
  await value('mturk.pull', { mode: 'all' })
  await session.jobs.idle()
  const { db } = session.project()
  return { standin, seed, session, db, call, value }
}

describe('MTurk actions on a whole grid query', () => {
  it('counts, then bonuses each worker of the query once, on their latest assignment', async () => {
    const { standin, seed, db, call, value } = await pulledSession()
    const chosen = seed.workers.slice(0, 3)
    const filter = { workers: chosen }
    const mine = seed.assignments.filter((a) => chosen.includes(a.WorkerId))
    const counts = await value<QueryTargetCounts>('mturk.queryTargets', { filter })
    expect(counts).toEqual({
      assignments: mine.length,
      workers: new Set(mine.map((a) => a.WorkerId)).size,
      bonusAssignments: new Set(mine.map((a) => a.WorkerId)).size,
      sampleWorkers: [...new Set(mine.map((a) => a.WorkerId))].sort(),
    })
    const actionsBefore = count(db, 'SELECT count(*) FROM worker_actions')

    // A count that is no longer true, or a total over the balance: nothing is sent or recorded.
    const stale = await call('mturk.bonus', {
      query: { filter, expected: counts.bonusAssignments + 1 },
      amount: '0.10',
      reason: 'Thanks',
    })
    expect(stale).toMatchObject({ ok: false, error: { code: 'query-targets-changed' } })
    const tooMuch = await call('mturk.bonus', {
      query: { filter, expected: counts.bonusAssignments },
      amount: '5000',
      reason: 'Thanks',
    })
    expect(tooMuch).toMatchObject({ ok: false, error: { code: 'insufficient-balance' } })
    expect(standin.state.bonuses).toEqual([])
    expect(count(db, 'SELECT count(*) FROM worker_actions')).toBe(actionsBefore)

    const paid = await value<ActionOutcome>('mturk.bonus', {
      query: { filter, expected: counts.bonusAssignments },
      amount: '0.10',
      reason: 'Thanks',
    })
    expect(paid).toMatchObject({ action: 'bonus', succeeded: counts.bonusAssignments, failed: 0 })
    const latest = new Map<string, { id: string; at: number }>()
    for (const a of mine) {
      const seen = latest.get(a.WorkerId)
      const at = Math.floor(a.SubmitTime / 1000)
      if (!seen || at > seen.at) latest.set(a.WorkerId, { id: a.AssignmentId, at })
    }
    expect(
      standin.state.bonuses.map((b) => [b.WorkerId, b.AssignmentId, b.BonusAmount]).sort(),
    ).toEqual([...latest].map(([w, l]) => [w, l.id, '0.10']).sort())
  })

  it('approves the query’s assignments and messages its workers; refuses two kinds of target', async () => {
    const { standin, seed, db, call, value } = await pulledSession()
    const submitted = seed.assignments.filter((a) => a.AssignmentStatus === 'Submitted')
    expect(submitted.length).toBeGreaterThan(1)
    const submissionIds = submitted.map(
      (a) =>
        db
          .prepare('SELECT id FROM submissions WHERE assignment_id = ?')
          .pluck()
          .get(a.AssignmentId) as number,
    )
    const filter = { submissionIds }
    const counts = await value<QueryTargetCounts>('mturk.queryTargets', { filter })
    expect(counts.assignments).toBe(submitted.length)

    const both = await call('mturk.approve', {
      assignmentIds: [submitted[0]?.AssignmentId],
      query: { filter, expected: counts.assignments },
    })
    expect(both).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'assignmentIds' },
    })
    expect(await call('mturk.approve', {})).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument' },
    })

    const approved = await value<ActionOutcome>('mturk.approve', {
      query: { filter, expected: counts.assignments },
    })
    expect(approved).toMatchObject({ succeeded: submitted.length, failed: 0 })
    for (const a of submitted) {
      expect(standin.state.assignments.get(a.AssignmentId)?.AssignmentStatus).toBe('Approved')
    }
    expect(
      count(
        db,
        `SELECT count(*) FROM submissions WHERE status = 'Approved' AND id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(submissionIds),
      ),
    ).toBe(submitted.length)

    // Every worker of the whole project: one NotifyWorkers call (under 100 workers).
    const all = await value<QueryTargetCounts>('mturk.queryTargets', { filter: {} })
    expect(all.workers).toBe(new Set(seed.assignments.map((a) => a.WorkerId)).size)
    const notified = await value<ActionOutcome>('mturk.notify', {
      query: { filter: {}, expected: all.workers },
      subject: 'Hello',
      message: 'More work soon.',
    })
    expect(notified).toMatchObject({ succeeded: 1, failed: 0 })
    expect(standin.state.notifications.map((n) => n.WorkerId).sort()).toEqual(
      [...new Set(seed.assignments.map((a) => a.WorkerId))].sort(),
    )
  })
})
