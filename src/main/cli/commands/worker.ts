import type { ActionOutcome, WorkerActionKind } from '../../../shared/contract/mturk'
import { openProject } from '../../db/connection'
import { assignmentWorkers } from '../../db/queries/mturk/assignments'
import { localAuthor } from '../../ratings/author'
import { projectId } from '../../mturk/settings'
import type { ActionContext } from '../../mturk/workerActions'
import { WORKER_ACTIONS, WORKER_ACTION_NAMES, isWorkerAction } from '../../mturk/workerActionTable'
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
import { append } from '../../../shared/lists'

/** `--reason` and friends: present only when given. */
const opt = (values: ParsedValues, name: string, key = name): Record<string, string> => {
  const v = optionalString(values, name)
  return v === undefined ? {} : { [key]: v }
}

/**
 * How each action's options become the call's input; the shared action table checks it with the
 * contract's schema and runs it, as for the page.
 */
const INPUTS: Record<
  WorkerActionKind,
  { usage: string; input(ac: ActionContext, values: ParsedValues): Record<string, unknown> }
> = {
  approve: {
    usage: '--assignment ID... [--feedback TEXT]',
    input: (_ac, v) => ({ assignmentIds: stringList(v, 'assignment'), ...opt(v, 'feedback') }),
  },
  reject: {
    usage: '--assignment ID... --feedback TEXT',
    input: (_ac, v) => ({ assignmentIds: stringList(v, 'assignment'), ...opt(v, 'feedback') }),
  },
  bonus: {
    usage:
      '--assignment ID... [--worker W] --amount 0.50 --reason TEXT  (worker looked up in the project)',
    input: (ac, v) => {
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
      return { items, ...opt(v, 'amount'), ...opt(v, 'reason') }
    },
  },
  notify: {
    usage: '--worker W... --subject TEXT --message TEXT',
    input: (_ac, v) => ({
      workerIds: stringList(v, 'worker'),
      ...opt(v, 'subject'),
      ...opt(v, 'message'),
    }),
  },
  qualify: {
    usage: '--worker W... --qualification-type ID [--value N] [--notify]',
    input: (_ac, v) => {
      const value = optionalString(v, 'value')
      return {
        workerIds: stringList(v, 'worker'),
        ...opt(v, 'qualification-type', 'qualificationTypeId'),
        value: value === undefined ? 1 : parseNumber(value, 'value', { integer: true }),
        notify: v.notify === true,
      }
    },
  },
  disqualify: {
    usage: '--worker W... --qualification-type ID [--reason TEXT]',
    input: (_ac, v) => ({
      workerIds: stringList(v, 'worker'),
      ...opt(v, 'qualification-type', 'qualificationTypeId'),
      ...opt(v, 'reason'),
    }),
  },
  block: {
    usage: '--worker W... --reason TEXT',
    input: (_ac, v) => ({ workerIds: stringList(v, 'worker'), ...opt(v, 'reason') }),
  },
  unblock: {
    usage: '--worker W... [--reason TEXT]',
    input: (_ac, v) => ({ workerIds: stringList(v, 'worker'), ...opt(v, 'reason') }),
  },
}

export const workerCommand: Command = {
  name: 'worker',
  summary:
    'Act on MTurk workers: approve, reject, bonus, notify, qualify, disqualify, block, unblock',
  usage: [
    `winnow worker ACTION ... ${MTURK_USAGE_TAIL}`,
    ...WORKER_ACTION_NAMES.map((name) => `  ${name.padEnd(10)} ${INPUTS[name].usage}`),
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
    if (!isWorkerAction(name)) {
      throw new UsageError(`name an action: ${WORKER_ACTION_NAMES.join(', ')}`)
    }
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
        const input = INPUTS[name].input(ac, values)
        const outcome = await WORKER_ACTIONS[name].check(ac, input, parseWith)
        // Any failed request fails the command: scripts must not take a refusal for success.
        return {
          json: outcome,
          text: describeOutcome(outcome),
          exitCode: outcome.failed > 0 ? 1 : 0,
        }
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
  )
  append(
    lines,
    o.failures.map(
      (f) => `  failed: ${f.workerId}${f.assignmentId ? ` ${f.assignmentId}` : ''}: ${f.message}`,
    ),
  )
  return lines.join('\n')
}
