import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  type ActionRecord,
  accountBalance,
  approve,
  block,
  bonus,
  bonusToken,
  countQualifiedWorkers,
  disqualify,
  notify,
  qualificationTypes,
  qualify,
  reject,
  unblock,
} from '../../src/main/mturk/actions'
import { createMTurkClient } from '../../src/main/mturk/client'
import { seedDemo } from '../../standin/index'
import { CREDENTIALS, useStandin } from './standin-helpers'

const start = useStandin()

describe('approve and reject', () => {
  it('treats InvalidAssignmentState after a lost success as done, confirmed by GetAssignment', async () => {
    const { standin, ctx } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1' })
    const b = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW2' })
    standin.setFaults({ lostSuccess: 1, operations: ['ApproveAssignment', 'RejectAssignment'] })
    const approved = await approve(ctx, { assignmentId: a.AssignmentId, feedback: 'Great' })
    expect(approved.error).toBeUndefined()
    expect(approved.note).toMatch(/already approved/)
    const rejected = await reject(ctx, { assignmentId: b.AssignmentId, feedback: 'Off topic' })
    expect(rejected.note).toMatch(/already rejected/)
    expect([a.AssignmentStatus, b.AssignmentStatus]).toEqual(['Approved', 'Rejected'])
  })

  it('reports a real InvalidAssignmentState and refuses a reject without feedback', async () => {
    const { standin, ctx } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({
      HITId: hit.HITId,
      WorkerId: 'AW1',
      AssignmentStatus: 'Rejected',
    })
    const r = await approve(ctx, { assignmentId: a.AssignmentId })
    expect(r.error).toMatchObject({
      name: 'RequestError',
      code: 'AWS.MechanicalTurk.InvalidAssignmentState',
      httpStatus: 400,
    })
    const noFeedback = await reject(ctx, { assignmentId: a.AssignmentId, feedback: ' ' })
    expect(noFeedback.error?.name).toBe('InvalidInput')
    expect(standin.state.requests.some((q) => q.operation === 'RejectAssignment')).toBe(false)
  })
})

describe('bonus', () => {
  it('pays once when retried under faults, including lost successes', async () => {
    const { standin, ctx } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1' })
    const p = {
      projectId: 'p1',
      workerId: 'AW1',
      assignmentId: a.AssignmentId,
      amount: '1.5',
      reason: 'Careful work',
    }
    standin.setFaults({
      seed: 3,
      lostSuccess: 0.5,
      drop: 0.2,
      throttle: 0.2,
      operations: ['SendBonus'],
    })
    const records: ActionRecord[] = []
    for (let i = 0; i < 5; i++) records.push(await bonus(ctx, p)) // a user clicking five times
    expect(standin.state.bonuses).toHaveLength(1)
    expect(standin.state.bonuses[0]?.BonusAmount).toBe('1.50')
    expect(records.every((r) => r.error === undefined)).toBe(true)
    expect(records.filter((r) => r.note?.startsWith('already paid')).length).toBeGreaterThan(0)
    const sent = standin.state.requests.filter((r) => r.operation === 'SendBonus')
    expect(sent.length).toBeGreaterThan(5) // retried on the wire
    const tokens = new Set(
      sent.map((r) => (r.input as { UniqueRequestToken: string }).UniqueRequestToken),
    )
    expect([...tokens]).toEqual([bonusToken('p1', a.AssignmentId, '1.50', 'Careful work')])
  })

  it('settles any other RequestError with ListBonusPayments', async () => {
    const { standin, ctx } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1' })
    const p = {
      projectId: 'p',
      workerId: 'AW1',
      assignmentId: a.AssignmentId,
      amount: '2',
      reason: 'r',
    }
    // Paid earlier; now the service refuses with a message that does not name our token.
    standin.state.bonuses.push({
      WorkerId: 'AW1',
      AssignmentId: a.AssignmentId,
      BonusAmount: '2.00',
      Reason: 'r',
      GrantTime: 0,
      requestId: 'x',
    })
    standin.state.balanceCents = 0
    const paid = await bonus(ctx, p)
    expect(paid.note).toBe('already paid (ListBonusPayments)')
    const other = await bonus(ctx, { ...p, reason: 'another reason' })
    expect(other.error?.code).toBe('AWS.MechanicalTurk.InsufficientFunds')
  })

  it('derives short tokens that differ by project, assignment, amount and reason', () => {
    const t = bonusToken('p', 'A1', '1.00', 'r')
    expect(t.length).toBeLessThanOrEqual(64)
    expect(bonusToken('p', 'A1', '1', 'r')).toBe(t)
    for (const other of [
      bonusToken('q', 'A1', '1.00', 'r'),
      bonusToken('p', 'A2', '1.00', 'r'),
      bonusToken('p', 'A1', '1.01', 'r'),
      bonusToken('p', 'A1', '1.00', 's'),
    ]) {
      expect(other).not.toBe(t)
    }
  })
})

describe('notify', () => {
  it('sends 250 workers in 3 calls and collects per-worker failures', async () => {
    const { standin, ctx } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    const workers = Array.from({ length: 250 }, (_, i) => `AW${i}`)
    workers.forEach((w, i) =>
      standin.state.addAssignment({
        HITId: hit.HITId,
        WorkerId: w,
        AssignmentStatus: i % 50 === 0 ? 'Submitted' : 'Approved',
      }),
    )
    const { records, failures } = await notify(ctx, {
      subject: 'New HITs',
      message: 'More stories are up.',
      workerIds: [...workers, 'AW1'],
    })
    expect(records.map((r) => (r.request as { WorkerIds: string[] }).WorkerIds.length)).toEqual([
      100, 100, 50,
    ])
    expect(standin.state.requests.filter((r) => r.operation === 'NotifyWorkers')).toHaveLength(3)
    expect(failures.map((f) => f.workerId)).toEqual(['AW0', 'AW50', 'AW100', 'AW150', 'AW200'])
    expect(standin.state.notifications).toHaveLength(245)
  })

  it('stops, rather than records, when the job is cancelled', async () => {
    const { standin, ctx } = await start()
    const controller = new AbortController()
    controller.abort(new Error('cancelled'))
    const run = notify(
      { ...ctx, signal: controller.signal },
      {
        subject: 's',
        message: 'm',
        workerIds: ['AW1'],
      },
    )
    await expect(run).rejects.toThrow('cancelled')
    expect(standin.state.requests).toEqual([])
  })

  it('reports every worker of a refused batch', async () => {
    const { ctx } = await start()
    const { failures } = await notify(ctx, {
      subject: 's'.repeat(201),
      message: 'm',
      workerIds: ['AW1', 'AW2'],
    })
    expect(failures).toMatchObject([
      { workerId: 'AW1', code: 'ParameterValidationError' },
      { workerId: 'AW2', code: 'ParameterValidationError' },
    ])
  })
})

describe('qualifications, blocks and balance', () => {
  it('qualifies, disqualifies, counts, blocks, unblocks and reads the balance', async () => {
    const { standin, ctx } = await start()
    const seed = seedDemo(standin.state, { hits: 1, assignmentsPerHit: 1 })
    const typeId = seed.qualificationTypeIds[0] ?? ''
    for (let i = 0; i < 230; i++) standin.state.grant(typeId, `AQ${i}`)
    const before = await countQualifiedWorkers(ctx, { qualificationTypeId: typeId })
    expect(before.response).toEqual({ count: 230 + 8, pages: 3 })

    expect(
      (await qualify(ctx, { qualificationTypeId: typeId, workerId: 'ANEW', value: 3 })).error,
    ).toBeUndefined()
    expect(standin.state.qualification(typeId, 'ANEW')?.IntegerValue).toBe(3)
    const gone = await disqualify(ctx, {
      qualificationTypeId: typeId,
      workerId: 'AQ1',
      reason: 'quality',
    })
    expect(gone.error).toBeUndefined()
    const after = await countQualifiedWorkers(ctx, { qualificationTypeId: typeId })
    expect(after.response?.count).toBe(238)
    const revoked = await countQualifiedWorkers(ctx, {
      qualificationTypeId: typeId,
      status: 'Revoked',
    })
    expect(revoked.response?.count).toBe(1)

    const types = await qualificationTypes(ctx)
    expect(types.response?.QualificationTypes.map((t) => t.Name)).toEqual([
      'GLUCOSE qualified',
      'GLUCOSE disqualified',
    ])
    const foreign = [...standin.state.qualificationTypes.values()].find((t) => !t.owned)
    const notOurs = await qualify(ctx, {
      qualificationTypeId: foreign?.QualificationTypeId ?? '',
      workerId: 'AW1',
    })
    expect(notOurs.error?.name).toBe('RequestError')

    expect((await block(ctx, { workerId: 'ASPAM', reason: 'spam' })).error).toBeUndefined()
    expect(standin.state.blocks.get('ASPAM')).toBe('spam')
    expect((await unblock(ctx, { workerId: 'ASPAM' })).error).toBeUndefined()
    expect(standin.state.blocks.size).toBe(0)

    const balance = await accountBalance(ctx)
    expect(balance.response).toEqual({ AvailableBalance: '10000.00', OnHoldBalance: '0.00' })
    expect(balance.requestId).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('credentials', () => {
  it('never appear in records, errors, the stand-in request log or its log lines', async () => {
    const { standin, ctx, client, log } = await start()
    const seed = seedDemo(standin.state, { hits: 2, assignmentsPerHit: 2 })
    const a = seed.assignments[0]
    const records = [
      await accountBalance(ctx),
      await approve(ctx, { assignmentId: a?.AssignmentId ?? '' }),
      await approve(ctx, { assignmentId: a?.AssignmentId ?? '' }), // an error record
      await bonus(ctx, {
        projectId: 'p',
        workerId: a?.WorkerId ?? '',
        assignmentId: a?.AssignmentId ?? '',
        amount: '0.10',
        reason: 'r',
      }),
      await block(ctx, { workerId: 'not-a-worker', reason: 'x' }),
    ]
    // The client's configuration too, deeply: keys live only in the provider closure.
    const everything =
      JSON.stringify({ records, requests: standin.state.requests, log }) +
      inspect(client.config, { depth: 8, showHidden: true })
    expect(everything).not.toContain(CREDENTIALS.secretAccessKey)
    expect(everything).not.toContain(CREDENTIALS.accessKeyId)
    expect(records.some((r) => r.error)).toBe(true)

    // A client without keys is refused up front, and the message names no key either.
    expect(() =>
      createMTurkClient({
        endpoint: standin.url,
        credentials: { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: '' },
      }),
    ).toThrow(/secret access key are needed\.$/)
  })
})
