/**
 * The grid's filter with Back/Forward history. Typing in a text filter refines one history entry
 * instead of adding one per keystroke. Pure; tested in tests/renderer.
 */
import { type AnnotationFilter, filterKey, normalizeFilter } from '../../../../shared/filter'
import { type History, back, forward, pushHistory, startHistory } from '../../lib/history'

export interface FilterHistory {
  history: History<AnnotationFilter>
  /** The field last changed by typing, and when; typing again in it within the window coalesces. */
  typing: { field: keyof AnnotationFilter; at: number } | null
}

export const TYPING_WINDOW_MS = 2000

const same = (a: AnnotationFilter, b: AnnotationFilter) => filterKey(a) === filterKey(b)

export function initialFilterHistory(filter: AnnotationFilter = {}): FilterHistory {
  return { history: startHistory(normalizeFilter(filter)), typing: null }
}

export function changeFilter(
  state: FilterHistory,
  next: AnnotationFilter,
  options: { typing?: keyof AnnotationFilter; now?: number } = {},
): FilterHistory {
  const normalized = normalizeFilter(next)
  const now = options.now ?? Date.now()
  const { history, typing } = state
  if (same(history.present, normalized)) return state
  const coalesce =
    options.typing !== undefined &&
    typing !== null &&
    typing.field === options.typing &&
    now - typing.at < TYPING_WINDOW_MS
  const nextTyping = options.typing !== undefined ? { field: options.typing, at: now } : null
  if (coalesce) {
    return { history: { ...history, present: normalized, future: [] }, typing: nextTyping }
  }
  return { history: pushHistory(history, normalized, same), typing: nextTyping }
}

export function filterBack(state: FilterHistory): FilterHistory {
  return { history: back(state.history), typing: null }
}

export function filterForward(state: FilterHistory): FilterHistory {
  return { history: forward(state.history), typing: null }
}
