import type { CallName, CallResult, ParsedArgs } from '../../shared/contract'
import type { Session } from '../session'

/** Everything a handler may use besides its (already validated) arguments. */
export interface CallContext {
  session: Session
  /** Electron only: native dialogs for the window that called. */
  dialogs?: Dialogs
}

export interface Dialogs {
  openProject(): Promise<string | null>
  createProject(): Promise<string | null>
  openDataFiles(): Promise<string[]>
  /** A JSON mapping file for pulls (form field → release column). */
  openMappingFile(): Promise<string | null>
}

export type Handler<K extends CallName> = (
  args: ParsedArgs<K>,
  context: CallContext,
) => CallResult<K> | Promise<CallResult<K>>

/** A domain module's handlers: exactly the calls whose names it lists. */
export type Handlers<K extends CallName> = { [N in K]: Handler<N> }
