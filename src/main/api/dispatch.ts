import { type CallName, contract, isCallName } from '../../shared/contract'
import type { Outcome } from '../../shared/contract/errors'
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
    return { ok: false, error: info }
  }
}
