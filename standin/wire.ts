/**
 * What the stand-in puts on the wire: error bodies shaped like the service's (FORMATS §3.2) and
 * records with epoch-second timestamps (§3.1).
 */
import type {
  AssignmentRecord,
  HITRecord,
  QualificationRecord,
  QualificationTypeRecord,
  StandinState,
} from './state'

/** An error the service would answer with; the server turns it into the JSON body. */
export class StandinError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
    readonly turkErrorCode?: string,
  ) {
    super(message)
  }
}

export function requestError(message: string, code?: string): StandinError {
  return new StandinError('RequestError', message, 400, code && `AWS.MechanicalTurk.${code}`)
}

export function invalidParameter(name: string, value: unknown): StandinError {
  const shown = value === undefined ? 'null' : JSON.stringify(value)
  return new StandinError(
    'ParameterValidationError',
    `The value ${shown} is not valid for the parameter ${name}.`,
  )
}

/** `{__type, Message, TurkErrorCode?}`; messages end in ` (<epoch-ms>)` like the service's. */
export function errorBody(e: StandinError, nowMs: number): Record<string, string> {
  const body: Record<string, string> = { __type: e.type, Message: `${e.message} (${nowMs})` }
  if (e.turkErrorCode) body.TurkErrorCode = e.turkErrorCode
  return body
}

const seconds = (ms: number | undefined): number | undefined =>
  ms === undefined ? undefined : ms / 1000

export function hitToWire(state: StandinState, h: HITRecord): Record<string, unknown> {
  const done = state.assignmentsOf(h.HITId).length
  const expired = state.now() >= h.Expiration
  return {
    HITId: h.HITId,
    HITTypeId: h.HITTypeId,
    HITGroupId: h.HITGroupId,
    HITLayoutId: h.HITLayoutId,
    CreationTime: seconds(h.CreationTime),
    Title: h.Title,
    Description: h.Description,
    Question: h.Question,
    Keywords: h.Keywords,
    HITStatus: expired && h.HITStatus === 'Assignable' ? 'Reviewable' : h.HITStatus,
    MaxAssignments: h.MaxAssignments,
    Reward: h.Reward,
    AutoApprovalDelayInSeconds: h.AutoApprovalDelayInSeconds,
    Expiration: seconds(h.Expiration),
    AssignmentDurationInSeconds: h.AssignmentDurationInSeconds,
    RequesterAnnotation: h.RequesterAnnotation,
    QualificationRequirements: h.QualificationRequirements,
    HITReviewStatus: h.HITReviewStatus,
    NumberOfAssignmentsPending: 0,
    NumberOfAssignmentsAvailable: expired ? 0 : Math.max(0, h.MaxAssignments - done),
    NumberOfAssignmentsCompleted: done,
  }
}

export function assignmentToWire(a: AssignmentRecord): Record<string, unknown> {
  return {
    AssignmentId: a.AssignmentId,
    WorkerId: a.WorkerId,
    HITId: a.HITId,
    AssignmentStatus: a.AssignmentStatus,
    AutoApprovalTime: seconds(a.AutoApprovalTime),
    AcceptTime: seconds(a.AcceptTime),
    SubmitTime: seconds(a.SubmitTime),
    ApprovalTime: seconds(a.ApprovalTime),
    RejectionTime: seconds(a.RejectionTime),
    Deadline: seconds(a.Deadline),
    Answer: a.Answer,
    RequesterFeedback: a.RequesterFeedback,
  }
}

export function qualificationToWire(q: QualificationRecord): Record<string, unknown> {
  return { ...q, GrantTime: seconds(q.GrantTime) }
}

export function qualificationTypeToWire(q: QualificationTypeRecord): Record<string, unknown> {
  const wire: Record<string, unknown> = { ...q, CreationTime: seconds(q.CreationTime) }
  delete wire.owned
  return wire
}

export const centsToMoney = (cents: number): string => (cents / 100).toFixed(2)

/** `"1.5"` → 150; the pattern check happens in validation. */
export const moneyToCents = (money: string): number => Math.round(Number(money) * 100)
