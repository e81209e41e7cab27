/**
 * The actions on workers, one entry each, as the API and `winnow worker` both run them: the
 * contract call whose schema checks the arguments, and how the targets reach the action — listed
 * one by one, or a grid query resolved here to its distinct assignments or workers (never sent to
 * the page), refused when it no longer selects the number the user confirmed.
 */
import type { z } from 'zod'
import { type CallName, type ParsedArgs, contract } from '../../shared/contract'
import { UserError } from '../../shared/contract/errors'
import {
  type ActionOutcome,
  MAX_ACTION_TARGETS,
  type QueryTarget,
  type WorkerActionKind,
} from '../../shared/contract/mturk'
import {
  type AssignmentTarget,
  queryAssignments,
  queryLatestPerWorker,
  queryWorkers,
} from '../db/queries/mturk/targets'
import {
  type ActionContext,
  approveAssignments,
  blockWorkers,
  disqualifyWorkers,
  notifyWorkers,
  payBonuses,
  qualifyWorkers,
  rejectAssignments,
  unblockWorkers,
} from './workerActions'

type ActionCall = `mturk.${WorkerActionKind}` & CallName

/** Checks input against a schema, throwing the caller's kind of error (usage error, API error). */
type Parse = <S extends z.ZodType>(schema: S, input: unknown) => z.output<S>

export interface WorkerActionSpec<K extends ActionCall = ActionCall> {
  call: K
  /** Runs arguments the contract's schema already accepted. */
  run(ac: ActionContext, args: ParsedArgs<K>): Promise<ActionOutcome>
  /** Checks raw input with the contract's schema, then runs it. */
  check(ac: ActionContext, input: unknown, parse: Parse): Promise<ActionOutcome>
}

function entry<K extends ActionCall>(
  call: K,
  run: (ac: ActionContext, args: ParsedArgs<K>) => Promise<ActionOutcome>,
): WorkerActionSpec<K> {
  return {
    call,
    run,
    check: (ac, input, parse) => run(ac, parse(contract[call].args, input) as ParsedArgs<K>),
  }
}

/** The listed targets, or the query's, checked against the count the user confirmed. */
function targets<T>(
  listed: T[] | undefined,
  query: QueryTarget | undefined,
  noun: string,
  resolve: (query: QueryTarget, limit: number) => T[],
): T[] {
  if (listed) return listed
  if (!query) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'no-targets',
      message: `Name the ${noun} or a query.`,
    })
  }
  const found = resolve(query, MAX_ACTION_TARGETS + 1)
  if (found.length > MAX_ACTION_TARGETS) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'too-many-targets',
      message: `The query selects more than ${MAX_ACTION_TARGETS.toLocaleString('en-US')} ${noun}; narrow it. Nothing was sent.`,
    })
  }
  if (found.length !== query.expected) {
    throw new UserError({
      type: 'conflict',
      code: 'query-targets-changed',
      message: `The query now selects ${found.length} ${noun}, not the ${query.expected} confirmed. Nothing was sent; look again and confirm.`,
    })
  }
  return found
}

const assignmentIdsOf = (ac: ActionContext, q: QueryTarget, limit: number): string[] =>
  queryAssignments(ac.db, q.filter, limit).map((a) => a.assignmentId)
const workersOf = (ac: ActionContext, q: QueryTarget, limit: number): string[] =>
  queryWorkers(ac.db, q.filter, limit)
const latestOf = (ac: ActionContext, q: QueryTarget, limit: number): AssignmentTarget[] =>
  queryLatestPerWorker(ac.db, q.filter, limit)

export const WORKER_ACTIONS: { [K in WorkerActionKind]: WorkerActionSpec<`mturk.${K}`> } = {
  approve: entry('mturk.approve', (ac, { assignmentIds, query, feedback }) =>
    approveAssignments(ac, {
      assignmentIds: targets(assignmentIds, query, 'assignments', (q, n) =>
        assignmentIdsOf(ac, q, n),
      ),
      feedback,
    }),
  ),
  reject: entry('mturk.reject', (ac, { assignmentIds, query, feedback }) =>
    rejectAssignments(ac, {
      assignmentIds: targets(assignmentIds, query, 'assignments', (q, n) =>
        assignmentIdsOf(ac, q, n),
      ),
      feedback,
    }),
  ),
  bonus: entry('mturk.bonus', (ac, { items, query, amount, reason }) =>
    payBonuses(ac, {
      items: targets(items, query, 'workers', (q, n) => latestOf(ac, q, n)),
      amount,
      reason,
    }),
  ),
  notify: entry('mturk.notify', (ac, { workerIds, query, subject, message }) =>
    notifyWorkers(ac, {
      workerIds: targets(workerIds, query, 'workers', (q, n) => workersOf(ac, q, n)),
      subject,
      message,
    }),
  ),
  qualify: entry('mturk.qualify', (ac, { workerIds, query, qualificationTypeId, value, notify }) =>
    qualifyWorkers(ac, {
      workerIds: targets(workerIds, query, 'workers', (q, n) => workersOf(ac, q, n)),
      qualificationTypeId,
      value,
      notify,
    }),
  ),
  disqualify: entry('mturk.disqualify', (ac, { workerIds, query, qualificationTypeId, reason }) =>
    disqualifyWorkers(ac, {
      workerIds: targets(workerIds, query, 'workers', (q, n) => workersOf(ac, q, n)),
      qualificationTypeId,
      reason,
    }),
  ),
  block: entry('mturk.block', (ac, { workerIds, query, reason }) =>
    blockWorkers(ac, {
      workerIds: targets(workerIds, query, 'workers', (q, n) => workersOf(ac, q, n)),
      reason,
    }),
  ),
  unblock: entry('mturk.unblock', (ac, { workerIds, query, reason }) =>
    unblockWorkers(ac, {
      workerIds: targets(workerIds, query, 'workers', (q, n) => workersOf(ac, q, n)),
      reason,
    }),
  ),
}

export const WORKER_ACTION_NAMES = Object.keys(WORKER_ACTIONS) as WorkerActionKind[]

export function isWorkerAction(name: string | undefined): name is WorkerActionKind {
  return name !== undefined && Object.hasOwn(WORKER_ACTIONS, name)
}
