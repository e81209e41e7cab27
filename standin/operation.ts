import type { StandinState } from './state'
import type { Args, Rules } from './validate'

interface OperationContext {
  state: StandinState
  requestId: string
}

/** One service operation: its input rules and what it does to the state. */
export interface Operation {
  rules: Rules
  run(args: Args, ctx: OperationContext): Record<string, unknown>
}
