import { CancelledError } from './cancel'

/** Where a write job is: the step under way and, within it, how far. */
export interface WriteProgress {
  /** The step, in the user's words ("Recording item ratings"). */
  detail: string
  done: number
  total: number | null
}

/**
 * What a long write reports to and asks of whoever runs it (a job on a worker thread, or the
 * command line). A write checks `cancelled` between its steps and chunks; a cancelled write throws
 * inside its transaction, so nothing of it is kept.
 */
export interface WriteHooks {
  progress(p: WriteProgress): void
  cancelled(): boolean
}

/** For callers that neither show progress nor cancel (small writes, tests). */
export const QUIET: WriteHooks = { progress: () => undefined, cancelled: () => false }

/** Reports a step and stops the write (rolling back its transaction) if it was cancelled. */
export function step(
  hooks: WriteHooks,
  detail: string,
  done = 0,
  total: number | null = null,
): void {
  if (hooks.cancelled()) throw new CancelledError()
  hooks.progress({ detail, done, total })
}
