import type { ApiErrorInfo } from '../../../../shared/contract'
import { toErrorInfo } from '../../lib/errors'
import { createStore } from '../../lib/store'

export interface Message {
  id: number
  kind: 'error' | 'info'
  /** What the user was doing, e.g. "Opening project". */
  context: string
  error: ApiErrorInfo | null
  text: string
  /** A button on the note (Undo on a rating's note); choosing it dismisses the note. */
  action?: MessageAction
}

export interface MessageAction {
  label: string
  run: () => void
  testId?: string
}

let nextId = 1
export const messages = createStore<readonly Message[]>([])

const INFO_MS = 4000
/** A note with a button stays longer: there is something to do with it. */
const ACTION_MS = 8000

/** Shows a failure with its location until the user dismisses it. */
export function showError(context: string, error: unknown): void {
  const info = toErrorInfo(error)
  const message: Message = { id: nextId++, kind: 'error', context, error: info, text: info.message }
  // One error at a time: the newest replaces older errors so the user is never buried.
  messages.set((all) => [...all.filter((m) => m.kind !== 'error'), message])
}

export function showInfo(text: string, action?: MessageAction): void {
  const message: Message = {
    id: nextId++,
    kind: 'info',
    context: '',
    error: null,
    text,
    ...(action ? { action } : {}),
  }
  messages.set((all) => [...all, message].slice(-4))
  setTimeout(() => dismiss(message.id), action ? ACTION_MS : INFO_MS)
}

export function dismiss(id: number): void {
  messages.set((all) => all.filter((m) => m.id !== id))
}
