import type { ActionOutcome } from '../../../shared/contract/mturk'
import { mturkCalls } from '../../../shared/contract/mturk'
import { openProject } from '../../db/connection'
import { assignmentWorkers } from '../../db/queries/mturkAssignments'
import { localAuthor } from '../../ratings/author'
import { projectId } from '../../mturk/settings'
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
} from '../../mturk/workerActions'
import {
  type Command,
  type ParsedValues,
  UsageError,
  optionalString,
  parseNumber,
  requireString,
  stringList,
} from '../command'
import {
  MTURK_USAGE_TAIL,
  cancellable,
  cliConnection,
  mturkOptions,
  parseWith,
} from './mturkOptions'

type Run = (ac: ActionContext, values: ParsedValues) => Promise<ActionOutcome>

/** `--reason` and friends: present only when given. */
const opt = (values: ParsedValues, name: string, key = name): Record<string, string> => {
  const v = optionalString(values, name)
  return v === undefined ? {} : { [key]: v }
}

const ACTIONS: Record<string, { usage: string; run: Run }> = {
  approve: {
    usage: '--assignment ID... [--feedback TEXT]',
    run: (ac, v) =>
      approveAssignments(
        ac,
        parseWith(mturkCalls['mturk.approve'].args, {
          assignmentIds: stringList(v, 'assignment'),
          ...opt(v, 'feedback'),
        }),
      ),
  },
  reject: {
    usage: '--assignment ID... --feedback TEXT',
    run: (ac, v) =>
      rejectAssignments(
        ac,
        parseWith(mturkCalls['mturk.reject'].args, {
          assignmentIds: stringList(v, 'assignment'),
          ...opt(v, 'feedback'),
        }),
      ),
  },
  bonus: {
    usage:
      '--assignment ID... [--worker W] --amount 0.50 --reason TEXT  (worker looked up in the project)',
    run: (ac, v) => {
      const assignments = stringList(v, 'assignment')
      const given = stringList(v, 'worker')
      if (given.length > 1)
        throw new UsageError('--worker names the one worker of a single --assignment')
      if (given.length === 1 && assignments.length !== 1)
        throw new UsageError('--worker goes with exactly one --assignment')
      const known = assignmentWorkers(ac.db, assignments)
      const items = assignments.map((assignmentId) => {
        const workerId = given[0] ?? known.get(assignmentId)
        if (!workerId)
          throw new UsageError(`assignment ${assignmentId} is not in the project; give --worker`)
        return { workerId, assignmentId }
      })
      return payBonuses(
        ac,
        parseWith(mturkCalls['mturk.bonus'].args, {
          items,
          ...opt(v, 'amount'),
          ...opt(v, 'reason'),
        }),
      )
    },
  },
  notify: {
    usage: '--worker W... --subject TEXT --message TEXT',
    run: (ac, v) =>
      notifyWorkers(
        ac,
        parseWith(mturkCalls['mturk.notify'].args, {
          workerIds: stringList(v, 'worker'),
          ...opt(v, 'subject'),
          ...opt(v, 'message'),
        }),
      ),
  },
  qualify: {
    usage: '--worker W... --qualification-type ID [--value N] [--notify]',
    run: (ac, v) => {
      const value = optionalString(v, 'value')
      return qualifyWorkers(
        ac,
        parseWith(mturkCalls['mturk.qualify'].args, {
          workerIds: stringList(v, 'worker'),
          ...opt(v, 'qualification-type', 'qualificationTypeId'),
          value: value === undefined ? 1 : parseNumber(value, 'value', { integer: true }),
          notify: v.notify === true,
        }),
      )
    },
  },
  disqualify: {
    usage: '--worker W... --qualification-type ID [--reason TEXT]',
    run: (ac, v) =>
      disqualifyWorkers(
        ac,
        parseWith(mturkCalls['mturk.disqualify'].args, {
          workerIds: stringList(v, 'worker'),
          ...opt(v, 'qualification-type', 'qualificationTypeId'),
          ...opt(v, 'reason'),
        }),
      ),
  },
  block: {
    usage: '--worker W... --reason TEXT',
    run: (ac, v) =>
      blockWorkers(
        ac,
        parseWith(mturkCalls['mturk.block'].args, {
          workerIds: stringList(v, 'worker'),
          ...opt(v, 'reason'),
        }),
      ),
  },
  unblock: {
    usage: '--worker W... [--reason TEXT]',
    run: (ac, v) =>
      unblockWorkers(
        ac,
        parseWith(mturkCalls['mturk.unblock'].args, {
          workerIds: stringList(v, 'worker'),
          ...opt(v, 'reason'),
        }),
      ),
  },
}

export const workerCommand: Command = {
  name: 'worker',
  summary:
    'Act on MTurk workers: approve, reject, bonus, notify, qualify, disqualify, block, unblock',
  usage: [
    `winnow worker ACTION ... ${MTURK_USAGE_TAIL}`,
    ...Object.entries(ACTIONS).map(([name, a]) => `  ${name.padEnd(10)} ${a.usage}`),
    '  prints what was sent and what came back for each request (never credentials)',
  ].join('\n'),
  positionals: true,
  options: {
    ...mturkOptions,
    assignment: { type: 'string', multiple: true },
    worker: { type: 'string', multiple: true },
    feedback: { type: 'string' },
    amount: { type: 'string' },
    reason: { type: 'string' },
    subject: { type: 'string' },
    message: { type: 'string' },
    'qualification-type': { type: 'string' },
    value: { type: 'string' },
    notify: { type: 'boolean' },
  },
  async run(values, positionals) {
    const [name, ...extra] = positionals
    const action = name === undefined ? undefined : ACTIONS[name]
    if (!action) throw new UsageError(`name an action: ${Object.keys(ACTIONS).join(', ')}`)
    if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0] ?? ''}`)
    const dbPath = requireString(values, 'db')
    return cancellable(async (signal) => {
      const connection = cliConnection(values, signal)
      const db = openProject(dbPath, { create: true })
      try {
        const ac: ActionContext = {
          db,
          ctx: connection,
          endpoint: connection.url,
          projectId: projectId(db),
          author: localAuthor(),
        }
        const outcome = await action.run(ac, values)
        return { json: outcome, text: describeOutcome(outcome) }
      } finally {
        connection.close()
        db.close()
      }
    })
  },
}

function describeOutcome(o: ActionOutcome): string {
  const lines = o.entries.map((e) => {
    const answer = e.error
      ? `error ${e.error.code ?? e.error.name}: ${e.error.message}`
      : JSON.stringify(e.response)
    return `${e.action} sent ${JSON.stringify(e.request)}\n  → ${answer}${e.note ? ` (${e.note})` : ''}`
  })
  lines.push(
    `${o.succeeded} succeeded, ${o.failed} failed${o.skipped ? `, ${o.skipped} already done (not sent)` : ''}.`,
    ...o.failures.map(
      (f) => `  failed: ${f.workerId}${f.assignmentId ? ` ${f.assignmentId}` : ''}: ${f.message}`,
    ),
  )
  return lines.join('\n')
}
