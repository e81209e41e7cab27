/** Money, messages, qualifications and blocks (FORMATS §3.4, §3.5). */
import type { Operation } from './operation'
import { paginate } from './paging'
import { DAY_MS } from './state'
import { PAGE_RULES } from './validate'
import {
  StandinError,
  centsToMoney,
  invalidParameter,
  moneyToCents,
  qualificationToWire,
  qualificationTypeToWire,
  requestError,
} from './wire'

const WORKER_ID = /^A[A-Z0-9]{0,63}$/
const TEST_MAX_BYTES = 65_535

function pageOf(page: { NextToken?: string; NumResults: number }, list: string, items: unknown[]) {
  return {
    ...(page.NextToken ? { NextToken: page.NextToken } : {}),
    NumResults: page.NumResults,
    [list]: items,
  }
}

export const workerOperations: Record<string, Operation> = {
  GetAccountBalance: {
    rules: {},
    run(_args, { state }) {
      return {
        AvailableBalance: centsToMoney(state.balanceCents),
        OnHoldBalance: centsToMoney(state.onHoldCents),
      }
    },
  },

  SendBonus: {
    rules: {
      WorkerId: { t: 'workerId', req: true },
      BonusAmount: { t: 'money', req: true },
      AssignmentId: { t: 'id', req: true },
      Reason: { t: 'string', req: true, min: 1 },
      UniqueRequestToken: { t: 'string', min: 1, max: 64 },
    },
    run(args, { state, requestId }) {
      const token = args.optStr('UniqueRequestToken')
      const used = token === undefined ? undefined : state.bonusTokens.get(token)
      // Tokens are remembered for 24 h; a later reuse pays again, as the service documents.
      if (token !== undefined && used && state.now() - used.at < DAY_MS) {
        throw requestError(
          `The UniqueRequestToken ${token} has already been used by request ${used.requestId}.`,
        )
      }
      const assignmentId = args.str('AssignmentId')
      const a = state.liveAssignment(assignmentId)
      if (!a) throw requestError(`Assignment ${assignmentId} does not exist.`)
      const workerId = args.str('WorkerId')
      if (a.WorkerId !== workerId) {
        throw requestError(`Worker ${workerId} did not work on assignment ${assignmentId}.`)
      }
      const cents = moneyToCents(args.str('BonusAmount'))
      if (cents <= 0) throw invalidParameter('BonusAmount', args.str('BonusAmount'))
      if (cents > state.balanceCents) {
        throw requestError('Your account balance is insufficient.', 'InsufficientFunds')
      }
      state.balanceCents -= cents
      state.bonuses.push({
        WorkerId: workerId,
        BonusAmount: centsToMoney(cents),
        AssignmentId: assignmentId,
        Reason: args.str('Reason'),
        GrantTime: state.now(),
        ...(token !== undefined ? { UniqueRequestToken: token } : {}),
        requestId,
      })
      if (token !== undefined) state.bonusTokens.set(token, { at: state.now(), requestId })
      return {}
    },
  },

  ListBonusPayments: {
    rules: { ...PAGE_RULES, HITId: { t: 'id' }, AssignmentId: { t: 'id' } },
    run(args, { state }) {
      const hitId = args.optStr('HITId')
      const assignmentId = args.optStr('AssignmentId')
      if ((hitId === undefined) === (assignmentId === undefined)) {
        throw invalidParameter('HITId', hitId)
      }
      const matching = state.bonuses.filter((b) =>
        assignmentId !== undefined
          ? b.AssignmentId === assignmentId
          : state.assignments.get(b.AssignmentId)?.HITId === hitId,
      )
      const page = paginate(matching, args, `ListBonusPayments:${hitId ?? assignmentId}`)
      const items = page.items.map((b) => ({
        WorkerId: b.WorkerId,
        BonusAmount: b.BonusAmount,
        AssignmentId: b.AssignmentId,
        Reason: b.Reason,
        GrantTime: b.GrantTime / 1000,
      }))
      return pageOf(page, 'BonusPayments', items)
    },
  },

  NotifyWorkers: {
    rules: {
      Subject: { t: 'string', req: true, min: 1, max: 200 },
      MessageText: { t: 'string', req: true, min: 1, max: 4096 },
      WorkerIds: { t: 'workerIds', req: true, max: 100 },
    },
    run(args, { state }) {
      const failures: Record<string, string>[] = []
      for (const workerId of args.strings('WorkerIds') ?? []) {
        // Only workers this requester approved or rejected before can be messaged.
        if (!state.hasReviewed(workerId)) {
          failures.push({
            NotifyWorkersFailureCode: 'HardFailure',
            NotifyWorkersFailureMessage: 'There was an error with this request.',
            WorkerId: workerId,
          })
          continue
        }
        state.notifications.push({
          WorkerId: workerId,
          Subject: args.str('Subject'),
          MessageText: args.str('MessageText'),
          at: state.now(),
        })
      }
      return { NotifyWorkersFailureStatuses: failures }
    },
  },

  AssociateQualificationWithWorker: {
    rules: {
      QualificationTypeId: { t: 'id', req: true },
      WorkerId: { t: 'workerId', req: true },
      IntegerValue: { t: 'int' },
      SendNotification: { t: 'bool' },
    },
    run(args, { state }) {
      const typeId = args.str('QualificationTypeId')
      const type = state.qualificationTypes.get(typeId)
      if (!type) throw requestError(`QualificationType ${typeId} does not exist.`)
      if (!type.owned) throw requestError(`You do not own the QualificationType ${typeId}.`)
      state.grant(typeId, args.str('WorkerId'), args.optInt('IntegerValue') ?? 1)
      return {}
    },
  },

  DisassociateQualificationFromWorker: {
    rules: {
      WorkerId: { t: 'workerId', req: true },
      QualificationTypeId: { t: 'id', req: true },
      Reason: { t: 'string' },
    },
    run(args, { state }) {
      const q = state.qualification(args.str('QualificationTypeId'), args.str('WorkerId'))
      if (!q || q.Status !== 'Granted') {
        throw requestError(
          `Worker ${args.str('WorkerId')} does not have QualificationType ${args.str('QualificationTypeId')}.`,
        )
      }
      q.Status = 'Revoked'
      return {}
    },
  },

  ListWorkersWithQualificationType: {
    rules: {
      ...PAGE_RULES,
      QualificationTypeId: { t: 'id', req: true },
      Status: { t: 'enum', values: ['Granted', 'Revoked'] },
    },
    run(args, { state }) {
      const typeId = args.str('QualificationTypeId')
      if (!state.qualificationTypes.has(typeId)) {
        throw requestError(`QualificationType ${typeId} does not exist.`)
      }
      const status = args.optStr('Status')
      const matching = [...state.qualifications.values()].filter(
        (q) => q.QualificationTypeId === typeId && (status === undefined || q.Status === status),
      )
      const page = paginate(matching, args, `ListWorkersWithQualificationType:${typeId}:${status}`)
      return pageOf(page, 'Qualifications', page.items.map(qualificationToWire))
    },
  },

  CreateQualificationType: {
    rules: {
      Name: { t: 'string', req: true, min: 1 },
      Description: { t: 'string', req: true, min: 1, max: 2000 },
      QualificationTypeStatus: { t: 'enum', req: true, values: ['Active', 'Inactive'] },
      Keywords: { t: 'string' },
      RetryDelayInSeconds: { t: 'int', min: 0 },
      Test: { t: 'string' },
      AnswerKey: { t: 'string' },
      TestDurationInSeconds: { t: 'int', min: 1 },
      AutoGranted: { t: 'bool' },
      AutoGrantedValue: { t: 'int' },
    },
    run(args, { state }) {
      const name = args.str('Name')
      for (const q of state.qualificationTypes.values()) {
        if (q.owned && q.Name === name) {
          throw requestError(`You have already created a QualificationType with this name.`)
        }
      }
      const test = args.optStr('Test')
      for (const member of ['Test', 'AnswerKey']) {
        const text = args.optStr(member)
        if (text !== undefined && Buffer.byteLength(text) > TEST_MAX_BYTES) {
          throw invalidParameter(member, `${text.slice(0, 20)}…`)
        }
      }
      if (test !== undefined && !args.has('TestDurationInSeconds')) {
        throw invalidParameter('TestDurationInSeconds', undefined)
      }
      if (test !== undefined && args.optBool('AutoGranted') === true) {
        throw invalidParameter('AutoGranted', true)
      }
      const type = state.addQualificationType({
        Name: name,
        Description: args.str('Description'),
        QualificationTypeStatus: args.str('QualificationTypeStatus') as 'Active' | 'Inactive',
        IsRequestable: test !== undefined || args.optBool('AutoGranted') === true,
        AutoGranted: args.optBool('AutoGranted') ?? false,
        ...optional('Keywords', args.optStr('Keywords')),
        ...optional('Test', test),
        ...optional('AnswerKey', args.optStr('AnswerKey')),
        ...optional('TestDurationInSeconds', args.optInt('TestDurationInSeconds')),
        ...optional('RetryDelayInSeconds', args.optInt('RetryDelayInSeconds')),
        ...optional('AutoGrantedValue', args.optInt('AutoGrantedValue')),
      })
      return { QualificationType: qualificationTypeToWire(type) }
    },
  },

  ListQualificationTypes: {
    rules: {
      ...PAGE_RULES,
      MustBeRequestable: { t: 'bool', req: true },
      MustBeOwnedByCaller: { t: 'bool' },
      Query: { t: 'string' },
    },
    run(args, { state }) {
      const query = args.optStr('Query')?.toLowerCase()
      const requestable = args.optBool('MustBeRequestable') === true
      const owned = args.optBool('MustBeOwnedByCaller') === true
      const matching = [...state.qualificationTypes.values()].filter(
        (q) =>
          (!requestable || q.IsRequestable) &&
          (!owned || q.owned) &&
          (query === undefined || `${q.Name} ${q.Description}`.toLowerCase().includes(query)),
      )
      const scope = `ListQualificationTypes:${requestable}:${owned}:${query ?? ''}`
      const page = paginate(matching, args, scope)
      return pageOf(page, 'QualificationTypes', page.items.map(qualificationTypeToWire))
    },
  },

  CreateWorkerBlock: {
    rules: { WorkerId: { t: 'workerId', req: true }, Reason: { t: 'string', req: true, min: 1 } },
    run(args, { state }) {
      state.blocks.set(args.str('WorkerId'), args.str('Reason'))
      return {}
    },
  },

  DeleteWorkerBlock: {
    rules: { WorkerId: { t: 'string', req: true }, Reason: { t: 'string' } },
    run(args, { state }) {
      const workerId = args.str('WorkerId')
      if (!WORKER_ID.test(workerId)) throw new StandinError('RequestError', 'WorkerId is invalid.')
      state.blocks.delete(workerId) // succeeds whether or not the worker was blocked
      return {}
    },
  },

  ListWorkerBlocks: {
    rules: PAGE_RULES,
    run(args, { state }) {
      const all = [...state.blocks].map(([WorkerId, Reason]) => ({ WorkerId, Reason }))
      const page = paginate(all, args, 'ListWorkerBlocks')
      return pageOf(page, 'WorkerBlocks', page.items)
    },
  },
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>)
}
