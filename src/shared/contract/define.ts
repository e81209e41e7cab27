import type { z } from 'zod'

/** One call of the API: the schema its argument must satisfy and (as a phantom) its result type. */
export interface CallSpec<A extends z.ZodType = z.ZodType, R = unknown> {
  readonly args: A
  readonly __result?: R
}

/** `call(schema).returns<Result>()` — the only way a call enters the contract. */
export function call<A extends z.ZodType>(args: A): { returns<R>(): CallSpec<A, R> } {
  return { returns: <R>(): CallSpec<A, R> => ({ args }) }
}

/** One event main pushes to the page, with its payload type as a phantom. */
export interface EventSpec<P = unknown> {
  readonly __payload?: P
}

export function event<P>(): EventSpec<P> {
  return {}
}
