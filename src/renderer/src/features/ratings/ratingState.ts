import type { ChangeSetKind, RatingResult, UndoState } from '../../../../shared/contract/ratings'
import { api, isDesktop, onEvent } from '../../api'
import { formatCount } from '../../lib/format'
import { isPrimaryModifier } from '../../lib/keys'
import { createProjectStore } from '../../lib/projectScope'
import { createStore } from '../../lib/store'
import { showError, showInfo } from '../messages/messages'
import { refreshStats } from '../project/project'

/** "As of": null = now; otherwise epoch ms, and every rating shown is as it stood then. */
export const asOf = createProjectStore<number | null>(null)

/** Bumped after every rating change this page makes, so the grid and panels re-query. */
export const ratingsVersion = createStore(0)

export const undoState = createProjectStore<UndoState>({ undo: null, redo: null })

/** Bumped when main records a change set that leaves ratings as they were (a triage mark…). */
export const historyVersion = createStore(0)

let feeding = false

/** Listens (once) for change sets written anywhere: History and the Undo buttons read again. */
export function startHistoryFeed(): void {
  if (feeding) return
  feeding = true
  onEvent('history.changed', () => {
    historyVersion.set((v) => v + 1)
    refreshUndo()
  })
}

/** Kinds whose change sets move ratings (the others mark, judge, set or add). */
const RATING_KINDS: ReadonlySet<ChangeSetKind> = new Set([
  'import',
  'manual',
  'bulk',
  'policy',
  'mturk',
])

export function changesRating(kind: ChangeSetKind): boolean {
  return RATING_KINDS.has(kind)
}

/** What reverting a mark, a verdict or a setting did (or, previewed, would do). */
export function describeRevert(result: RatingResult): string {
  if (result.rows === 0) return 'Nothing changes now: a later change has set it again'
  const what = result.rows === 1 ? 'What it changed' : `The ${result.rows} things it changed`
  const verb = result.preview ? 'will be' : result.rows === 1 ? 'is' : 'are'
  return `${what} ${verb} put back as before`
}

export function refreshUndo(): void {
  api.ratings
    .undoState({})
    .then((state) => undoState.set(state))
    .catch(() => undefined)
}

/** After a change: re-query everything that shows ratings. */
export function ratingsChanged(): void {
  ratingsVersion.set((v) => v + 1)
  refreshUndo()
  refreshStats()
}

export function describeResult(result: RatingResult): string {
  return `${formatCount(result.changed)} annotation${result.changed === 1 ? '' : 's'} changed rating`
}

let turn: Promise<unknown> = Promise.resolve()

/**
 * Runs every rating change this page makes (keys, dialogs, reverts, undo, redo) one after
 * another: Ctrl+Z pressed right after a rating waits for it, then undoes it and names it (not
 * the change before it).
 */
export function inTurn<T>(change: () => Promise<T>): Promise<T> {
  const next = turn.then(change, change)
  turn = next.catch(() => undefined)
  return next
}

function step(which: 'undo' | 'redo'): Promise<void> {
  return inTurn(() => stepNow(which))
}

async function stepNow(which: 'undo' | 'redo'): Promise<void> {
  try {
    // Read afresh: the state kept for the toolbar may not have caught up with the last change.
    const state = await api.ratings.undoState({})
    const target = which === 'undo' ? state.undo : state.redo
    const result = which === 'undo' ? await api.ratings.undo({}) : await api.ratings.redo({})
    if (result === null) {
      showInfo(which === 'undo' ? 'Nothing to undo.' : 'Nothing to redo.')
    } else {
      const what = target ? `“${target.description}”` : 'the last change'
      // A mark or a verdict moves no rating: its name says it all.
      const how = !target || changesRating(target.kind) ? `: ${describeResult(result)}` : ''
      showInfo(`${which === 'undo' ? 'Undid' : 'Redid'} ${what}${how}.`)
    }
    ratingsChanged()
  } catch (e) {
    showError(which === 'undo' ? 'Undo' : 'Redo', e)
  }
}

export const undo = () => step('undo')
export const redo = () => step('redo')

/**
 * Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y in the browser, for a page whose keys are its own (the desktop
 * app's Edit menu sends these as commands instead); whether the key was one of them.
 */
export function undoKey(e: KeyboardEvent): boolean {
  if (isDesktop || !isPrimaryModifier(e) || e.altKey) return false
  const key = e.key.toLowerCase()
  if (key !== 'z' && key !== 'y') return false
  e.preventDefault()
  void (key === 'y' || e.shiftKey ? redo() : undo())
  return true
}
