import { type CallName, contract, isCallName } from '../../shared/contract'
import type { ApiErrorInfo, Outcome } from '../../shared/contract/errors'
import type { Session } from '../session'
import type { CallContext, Handler } from './handlers'
import { handlers } from './index'
import { toErrorInfo } from './errors'

/**
 * The one way into main: checks the name against the contract, validates the argument with the
 * call's schema (the page is untrusted), runs the handler and turns failures into values.
 */
export async function dispatch(
  name: unknown,
  rawArgs: unknown,
  context: CallContext,
): Promise<Outcome<unknown>> {
  if (!isCallName(name)) {
    return {
      ok: false,
      error: {
        type: 'invalid-argument',
        code: 'unknown-call',
        message: `Unknown call ${String(name)}`,
      },
    }
  }
  try {
    const args: unknown = contract[name].args.parse(rawArgs ?? {})
    const handler = handlers[name] as Handler<CallName>
    const value: unknown = await handler(args as never, context)
    return { ok: true, value }
  } catch (error) {
    const info = toErrorInfo(error)
    if (info.type === 'internal') console.error(`${name} failed:`, error)
    return { ok: false, error: namingTheJob(info, context.session) }
  }
}

/**
 * "The project is busy", said of this window's import when one runs: it holds the project for its
 * whole transaction (a pull's and an indexing step's commits are short, so a refusal while only
 * those run more likely comes from another program, and keeps the general message).
 */
function namingTheJob(info: ApiErrorInfo, session: Session): ApiErrorInfo {
  if (info.code !== 'project-busy') return info
  const job = session.jobs.list().find((j) => j.state === 'running' && j.kind === 'import')
  if (!job) return info
  return {
    ...info,
    message: `${job.title} is writing to the project. Nothing was changed; try again when it has finished (the job tray shows how far it is).`,
  }
}
