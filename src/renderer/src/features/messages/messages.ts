import type { ApiErrorInfo } from '../../../../shared/contract'
import type { PageId } from '../../../../shared/pages'
import { toErrorInfo } from '../../lib/errors'
import { createStore } from '../../lib/store'
import { currentPage } from '../shell/navigation'

export interface Message {
  id: number
  kind: 'error' | 'info'
  /** What the user was doing, e.g. "Opening project". */
  context: string
  error: ApiErrorInfo | null
  text: string
  /** A button on the note (Undo on a rating's note); choosing it dismisses the note. */
  action?: MessageAction
  /** The page on screen when the message came: the message ends when that page is left. */
  page: PageId
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

/**
 * Shows a failure with its location until its cause ends: the user dismisses it, leaves the page
 * it came from, or the same action (`context`) succeeds (see `attempt` and `endError`).
 */
export function showError(context: string, error: unknown): void {
  const info = toErrorInfo(error)
  const message: Message = {
    id: nextId++,
    kind: 'error',
    context,
    error: info,
    text: info.message,
    page: currentPage.get(),
  }
  // One error at a time: the newest replaces older errors so the user is never buried.
  messages.set((all) => [...all.filter((m) => m.kind !== 'error'), message])
}

/** The action named `context` has now succeeded: its earlier failure no longer holds. */
export function endError(context: string): void {
  messages.set((all) => {
    const rest = all.filter((m) => m.kind !== 'error' || m.context !== context)
    return rest.length === all.length ? all : rest
  })
}

/**
 * Runs an action named `context`: its failure is shown (and null returned), its success ends an
 * error an earlier try of the same action left on screen.
 */
export async function attempt<T>(context: string, work: () => Promise<T>): Promise<T | null> {
  try {
    const value = await work()
    endError(context)
    return value
  } catch (e) {
    showError(context, e)
    return null
  }
}

export function showInfo(text: string, action?: MessageAction): void {
  const message: Message = {
    id: nextId++,
    kind: 'info',
    context: '',
    error: null,
    text,
    page: currentPage.get(),
    ...(action ? { action } : {}),
  }
  messages.set((all) => [...all, message].slice(-4))
  setTimeout(() => dismiss(message.id), action ? ACTION_MS : INFO_MS)
}

export function dismiss(id: number): void {
  messages.set((all) => all.filter((m) => m.id !== id))
}

// A message is about the page it came from: leaving that page ends it, so it never follows the
// user to another page.
currentPage.subscribe(() => {
  const page = currentPage.get()
  messages.set((all) => {
    const rest = all.filter((m) => m.page === page)
    return rest.length === all.length ? all : rest
  })
})
