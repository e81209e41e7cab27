/**
 * The stand-in's wire protocol and rules, through the real SDK client (and raw HTTP where the
 * SDK would hide the wire): envelope checks, error shapes, validation, state rules.
 */
import {
  ApproveAssignmentCommand,
  GetAssignmentCommand,
  GetHITCommand,
  ListAssignmentsForHITCommand,
  ListBonusPaymentsCommand,
  ListHITsCommand,
  NotifyWorkersCommand,
  RejectAssignmentCommand,
  SendBonusCommand,
  CreateQualificationTypeCommand,
  DeleteWorkerBlockCommand,
  ListQualificationTypesCommand,
} from '@aws-sdk/client-mturk'
import { describe, expect, it } from 'vitest'
import { DAY_MS } from '../../standin/state'
import { movableClock, useStandin } from './standin-helpers'

const start = useStandin()

/** The error a promise rejects with (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  try {
    await p
  } catch (e) {
    return e as Record<string, unknown> & Error
  }
  throw new Error('expected a failure')
}

const AUTH =
  'AWS4-HMAC-SHA256 Credential=AKIDLOCAL/20260115/us-east-1/mturk-requester/aws4_request, SignedHeaders=host, Signature=00'

function raw(url: string, target: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `MTurkRequesterServiceV20170117.${target}`,
      authorization: AUTH,
      ...headers,
    },
    body: JSON.stringify(body),
  })
}

describe('wire envelope', () => {
  it('answers JSON 1.1 with a request id and epoch-second timestamps', async () => {
    const clock = movableClock(1_735_442_939_457)
    const { standin } = await start({ clock: clock.now })
    const hit = standin.state.addHIT({ Title: 'T' })
    const res = await raw(standin.url, 'GetHIT', { HITId: hit.HITId })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-amz-json-1.1')
    expect(res.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/)
    const body = (await res.json()) as { HIT: { CreationTime: unknown } }
    expect(body.HIT.CreationTime).toBe(1_735_442_939.457)
  })

  it('refuses a missing or foreign signature scope, a wrong content type or target', async () => {
    const { standin } = await start()
    const noAuth = await raw(standin.url, 'GetAccountBalance', {}, { authorization: '' })
    expect(noAuth.status).toBe(403)
    const wrongScope = await raw(
      standin.url,
      'GetAccountBalance',
      {},
      {
        authorization: AUTH.replace('mturk-requester', 's3'),
      },
    )
    expect(wrongScope.status).toBe(403)
    const json = await raw(standin.url, 'GetAccountBalance', {}, { 'content-type': 'text/plain' })
    expect(json.status).toBe(400)
    const unknown = await raw(standin.url, 'CreateHITWithoutAnything', {})
    expect(((await unknown.json()) as { __type: string }).__type).toBe('UnknownOperationException')
  })

  it('shapes errors like the service: __type, Message ending in (epoch-ms), TurkErrorCode', async () => {
    const clock = movableClock()
    const { standin } = await start({ clock: clock.now })
    const res = await raw(standin.url, 'GetHIT', { HITId: 'NOSUCHHIT' })
    expect(res.status).toBe(400)
    expect(res.headers.get('x-amzn-requestid')).toBeTruthy()
    expect(await res.json()).toEqual({
      __type: 'RequestError',
      Message: `Hit NOSUCHHIT does not exist. (${clock.now()})`,
      TurkErrorCode: 'AWS.MechanicalTurk.HITDoesNotExist',
    })
  })
})

describe('validation errors reach the SDK with the right name and code', () => {
  it('checks page sizes, ids, patterns and lengths', async () => {
    const { standin, client } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AWORKER1' })
    const cases: Promise<unknown>[] = [
      client.send(new ListHITsCommand({ MaxResults: 500 })),
      client.send(new ListHITsCommand({ MaxResults: 0 })),
      client.send(new GetHITCommand({ HITId: undefined })),
      client.send(new GetHITCommand({ HITId: 'lower-case' })),
      client.send(new ListHITsCommand({ NextToken: 'not-a-token' })),
      client.send(
        new SendBonusCommand({
          WorkerId: 'BADWORKER',
          AssignmentId: a.AssignmentId,
          BonusAmount: '1.00',
          Reason: 'r',
        }),
      ),
      client.send(
        new SendBonusCommand({
          WorkerId: 'AWORKER1',
          AssignmentId: a.AssignmentId,
          BonusAmount: '1.005',
          Reason: 'r',
        }),
      ),
      client.send(
        new SendBonusCommand({
          WorkerId: 'AWORKER1',
          AssignmentId: a.AssignmentId,
          BonusAmount: '1.00',
          Reason: 'r',
          UniqueRequestToken: 'x'.repeat(65),
        }),
      ),
      client.send(
        new NotifyWorkersCommand({
          Subject: 's'.repeat(201),
          MessageText: 'm',
          WorkerIds: ['AW1'],
        }),
      ),
      client.send(
        new NotifyWorkersCommand({
          Subject: 's',
          MessageText: 'm'.repeat(4097),
          WorkerIds: ['AW1'],
        }),
      ),
      client.send(
        new NotifyWorkersCommand({
          Subject: 's',
          MessageText: 'm',
          WorkerIds: Array.from({ length: 101 }, (_, i) => `AW${i}`),
        }),
      ),
      client.send(
        new RejectAssignmentCommand({ AssignmentId: a.AssignmentId, RequesterFeedback: undefined }),
      ),
      client.send(new ListQualificationTypesCommand({ MustBeRequestable: undefined })),
      client.send(new ListBonusPaymentsCommand({})),
    ]
    for (const p of cases) {
      const e = await failure(p)
      expect(e.name).toBe('ParameterValidationError')
      expect((e.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(400)
      expect(e.message).toMatch(/is not valid for the parameter \w+\. \(\d+\)$/)
    }
    expect(a.AssignmentStatus).toBe('Submitted') // nothing was applied
  })

  it('answers a disposed or unknown HIT with HITDoesNotExist', async () => {
    const clock = movableClock()
    const { standin, client } = await start({ clock: clock.now })
    const hit = standin.state.addHIT({ Title: 'old' })
    standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1', AssignmentStatus: 'Rejected' })
    await client.send(new GetHITCommand({ HITId: hit.HITId }))
    clock.advance(120 * DAY_MS)
    const e = await failure(client.send(new GetHITCommand({ HITId: hit.HITId })))
    expect(e.name).toBe('RequestError')
    expect(e.TurkErrorCode).toBe('AWS.MechanicalTurk.HITDoesNotExist')
    const listed = await client.send(new ListHITsCommand({ MaxResults: 100 }))
    expect(listed.NumResults).toBe(0)
    const e2 = await failure(client.send(new ListAssignmentsForHITCommand({ HITId: hit.HITId })))
    expect(e2.TurkErrorCode).toBe('AWS.MechanicalTurk.HITDoesNotExist')
  })
})

describe('assignment rules', () => {
  it('approves Submitted once, then InvalidAssignmentState; overrides a rejection within 30 days', async () => {
    const clock = movableClock()
    const { standin, client } = await start({ clock: clock.now })
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1' })
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.AssignmentId }))
    const again = await failure(
      client.send(new ApproveAssignmentCommand({ AssignmentId: a.AssignmentId })),
    )
    expect(again.name).toBe('RequestError')
    expect(again.TurkErrorCode).toBe('AWS.MechanicalTurk.InvalidAssignmentState')
    expect(again.message).toMatch(
      /^This operation can be called with a status of: Submitted \(\d+\)$/,
    )

    const b = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW2' })
    await client.send(
      new RejectAssignmentCommand({ AssignmentId: b.AssignmentId, RequesterFeedback: 'no' }),
    )
    const plain = await failure(
      client.send(new ApproveAssignmentCommand({ AssignmentId: b.AssignmentId })),
    )
    expect(plain.TurkErrorCode).toBe('AWS.MechanicalTurk.InvalidAssignmentState')
    await client.send(
      new ApproveAssignmentCommand({ AssignmentId: b.AssignmentId, OverrideRejection: true }),
    )
    const got = await client.send(new GetAssignmentCommand({ AssignmentId: b.AssignmentId }))
    expect(got.Assignment?.AssignmentStatus).toBe('Approved')
    expect(got.Assignment?.SubmitTime).toBeInstanceOf(Date)

    const c = standin.state.addAssignment({
      HITId: hit.HITId,
      WorkerId: 'AW3',
      AssignmentStatus: 'Rejected',
    })
    clock.advance(31 * DAY_MS)
    const late = await failure(
      client.send(
        new ApproveAssignmentCommand({ AssignmentId: c.AssignmentId, OverrideRejection: true }),
      ),
    )
    expect(late.TurkErrorCode).toBe('AWS.MechanicalTurk.InvalidAssignmentState')
  })

  it('approves Submitted work by itself at AutoApprovalTime', async () => {
    const clock = movableClock()
    const { standin, client } = await start({ clock: clock.now })
    const hit = standin.state.addHIT({ Title: 'T', AutoApprovalDelayInSeconds: 3600 })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1' })
    const before = await client.send(new GetAssignmentCommand({ AssignmentId: a.AssignmentId }))
    expect(before.Assignment?.AssignmentStatus).toBe('Submitted')
    clock.advance(3600_000)
    const after = await client.send(new GetAssignmentCommand({ AssignmentId: a.AssignmentId }))
    expect(after.Assignment?.AssignmentStatus).toBe('Approved')
    expect(after.Assignment?.ApprovalTime?.getTime()).toBe(
      after.Assignment?.AutoApprovalTime?.getTime(),
    )
  })

  it('refuses a reused bonus token for 24 hours, naming the token', async () => {
    const clock = movableClock()
    const { standin, client } = await start({ clock: clock.now })
    const hit = standin.state.addHIT({ Title: 'T' })
    const a = standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'AW1' })
    const input = {
      WorkerId: 'AW1',
      AssignmentId: a.AssignmentId,
      BonusAmount: '0.25',
      Reason: 'thanks',
      UniqueRequestToken: 'tok-1',
    }
    await client.send(new SendBonusCommand(input))
    const reused = await failure(client.send(new SendBonusCommand(input)))
    expect(reused.name).toBe('RequestError')
    expect(reused.message).toContain('tok-1')
    clock.advance(DAY_MS)
    await client.send(new SendBonusCommand(input))
    const paid = await client.send(new ListBonusPaymentsCommand({ AssignmentId: a.AssignmentId }))
    expect(paid.BonusPayments?.map((b) => b.BonusAmount)).toEqual(['0.25', '0.25'])
    expect(paid.BonusPayments?.[0]?.GrantTime).toBeInstanceOf(Date)
  })

  it('reports NotifyWorkers failures for workers never approved or rejected, in a 200', async () => {
    const { standin, client } = await start()
    const hit = standin.state.addHIT({ Title: 'T' })
    standin.state.addAssignment({
      HITId: hit.HITId,
      WorkerId: 'AKNOWN',
      AssignmentStatus: 'Approved',
    })
    standin.state.addAssignment({ HITId: hit.HITId, WorkerId: 'APENDING' })
    const out = await client.send(
      new NotifyWorkersCommand({
        Subject: 'Hi',
        MessageText: 'Thanks',
        WorkerIds: ['AKNOWN', 'APENDING', 'ASTRANGER'],
      }),
    )
    expect(out.NotifyWorkersFailureStatuses?.map((f) => f.WorkerId)).toEqual([
      'APENDING',
      'ASTRANGER',
    ])
    expect(out.NotifyWorkersFailureStatuses?.[0]?.NotifyWorkersFailureCode).toBe('HardFailure')
    expect(standin.state.notifications.map((n) => n.WorkerId)).toEqual(['AKNOWN'])
  })

  it('keeps qualification types unique and checks Test rules; DeleteWorkerBlock checks the id', async () => {
    const { client } = await start()
    const base = { Name: 'Q', Description: 'd', QualificationTypeStatus: 'Active' as const }
    await client.send(new CreateQualificationTypeCommand(base))
    const dup = await failure(client.send(new CreateQualificationTypeCommand(base)))
    expect(dup.name).toBe('RequestError')
    const noDuration = await failure(
      client.send(
        new CreateQualificationTypeCommand({ ...base, Name: 'Q2', Test: '<QuestionForm/>' }),
      ),
    )
    expect(noDuration.name).toBe('ParameterValidationError')
    const bad = await failure(client.send(new DeleteWorkerBlockCommand({ WorkerId: 'nobody' })))
    expect(bad.message).toMatch(/^WorkerId is invalid\./)
    await client.send(new DeleteWorkerBlockCommand({ WorkerId: 'ANEVERBLOCKED' }))
  })
})
