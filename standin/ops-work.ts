/** HITs and assignments: listing, reading, approving and rejecting (FORMATS §3.4, §3.5). */
import type { Operation } from './operation'
import { type Page, paginate } from './paging'
import type { AssignmentRecord, HITRecord, StandinState } from './state'
import { PAGE_RULES } from './validate'
import { StandinError, assignmentToWire, hitToWire, requestError } from './wire'

const STATUSES = ['Submitted', 'Approved', 'Rejected'] as const

function hitOrThrow(state: StandinState, hitId: string): HITRecord {
  const hit = state.liveHIT(hitId)
  if (!hit) throw requestError(`Hit ${hitId} does not exist.`, 'HITDoesNotExist')
  return hit
}

function assignmentOrThrow(state: StandinState, assignmentId: string): AssignmentRecord {
  const a = state.liveAssignment(assignmentId)
  if (!a) throw requestError(`Assignment ${assignmentId} does not exist.`)
  return a
}

function invalidState(): StandinError {
  return requestError(
    'This operation can be called with a status of: Submitted',
    'InvalidAssignmentState',
  )
}

function hitPage(state: StandinState, page: Page<HITRecord>): Record<string, unknown> {
  return {
    ...(page.NextToken ? { NextToken: page.NextToken } : {}),
    NumResults: page.NumResults,
    HITs: page.items.map((h) => hitToWire(state, h)),
  }
}

export const workOperations: Record<string, Operation> = {
  ListHITs: {
    rules: PAGE_RULES,
    run(args, { state }) {
      const live = [...state.hits.values()].filter((h) => !state.isDisposed(h))
      return hitPage(state, paginate(live, args, 'ListHITs'))
    },
  },

  ListHITsForQualificationType: {
    rules: { ...PAGE_RULES, QualificationTypeId: { t: 'id', req: true } },
    run(args, { state }) {
      const typeId = args.str('QualificationTypeId')
      if (!state.qualificationTypes.has(typeId)) {
        throw requestError(`QualificationType ${typeId} does not exist.`)
      }
      const hits = [...state.hits.values()].filter(
        (h) =>
          !state.isDisposed(h) &&
          h.QualificationRequirements.some((q) => q.QualificationTypeId === typeId),
      )
      return hitPage(state, paginate(hits, args, `ListHITsForQualificationType:${typeId}`))
    },
  },

  GetHIT: {
    rules: { HITId: { t: 'id', req: true } },
    run(args, { state }) {
      return { HIT: hitToWire(state, hitOrThrow(state, args.str('HITId'))) }
    },
  },

  ListAssignmentsForHIT: {
    rules: {
      ...PAGE_RULES,
      HITId: { t: 'id', req: true },
      AssignmentStatuses: { t: 'enums', values: STATUSES },
    },
    run(args, { state }) {
      const hit = hitOrThrow(state, args.str('HITId'))
      const wanted = args.strings('AssignmentStatuses') ?? []
      const statuses = wanted.length > 0 ? wanted : [...STATUSES]
      const matching = state
        .assignmentsOf(hit.HITId)
        .filter((a) => statuses.includes(a.AssignmentStatus))
      const scope = `ListAssignmentsForHIT:${hit.HITId}:${[...statuses].sort().join(',')}`
      const page = paginate(matching, args, scope)
      return {
        ...(page.NextToken ? { NextToken: page.NextToken } : {}),
        NumResults: page.NumResults,
        Assignments: page.items.map(assignmentToWire),
      }
    },
  },

  GetAssignment: {
    rules: { AssignmentId: { t: 'id', req: true } },
    run(args, { state }) {
      const a = assignmentOrThrow(state, args.str('AssignmentId'))
      return { Assignment: assignmentToWire(a), HIT: hitToWire(state, hitOrThrow(state, a.HITId)) }
    },
  },

  ApproveAssignment: {
    rules: {
      AssignmentId: { t: 'id', req: true },
      RequesterFeedback: { t: 'string', max: 1024 },
      OverrideRejection: { t: 'bool' },
    },
    run(args, { state }) {
      const a = assignmentOrThrow(state, args.str('AssignmentId'))
      const override =
        a.AssignmentStatus === 'Rejected' &&
        args.optBool('OverrideRejection') === true &&
        state.canOverrideRejection(a)
      if (a.AssignmentStatus !== 'Submitted' && !override) throw invalidState()
      a.AssignmentStatus = 'Approved'
      a.ApprovalTime = state.now()
      delete a.RejectionTime
      const feedback = args.optStr('RequesterFeedback')
      if (feedback !== undefined) a.RequesterFeedback = feedback
      return {}
    },
  },

  RejectAssignment: {
    rules: {
      AssignmentId: { t: 'id', req: true },
      RequesterFeedback: { t: 'string', req: true, min: 1, max: 1024 },
    },
    run(args, { state }) {
      const a = assignmentOrThrow(state, args.str('AssignmentId'))
      if (a.AssignmentStatus !== 'Submitted') throw invalidState()
      a.AssignmentStatus = 'Rejected'
      a.RejectionTime = state.now()
      a.RequesterFeedback = args.str('RequesterFeedback')
      return {}
    },
  },

  ListReviewPolicyResultsForHIT: {
    rules: {
      ...PAGE_RULES,
      HITId: { t: 'id', req: true },
      PolicyLevels: { t: 'enums', values: ['Assignment', 'HIT'] },
      RetrieveActions: { t: 'bool' },
      RetrieveResults: { t: 'bool' },
    },
    run(args, { state }) {
      // The stand-in attaches no review policies, so the reports are always empty.
      const hit = hitOrThrow(state, args.str('HITId'))
      const empty = { ReviewResults: [], ReviewActions: [] }
      return { HITId: hit.HITId, AssignmentReviewReport: empty, HITReviewReport: empty }
    },
  },
}
