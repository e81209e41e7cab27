/** Back/forward through a sequence of states (filter history). Immutable and pure. */

export interface History<T> {
  past: readonly T[]
  present: T
  future: readonly T[]
}

const HISTORY_LIMIT = 100

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] }
}

/** Moves to a new state; equal states (by `same`) are not recorded twice; forward is dropped. */
export function pushHistory<T>(h: History<T>, next: T, same: (a: T, b: T) => boolean): History<T> {
  if (same(h.present, next)) return h
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [] }
}

export function back<T>(h: History<T>): History<T> {
  const previous = h.past[h.past.length - 1]
  if (previous === undefined) return h
  return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future] }
}

export function forward<T>(h: History<T>): History<T> {
  const [next, ...rest] = h.future
  if (next === undefined) return h
  return { past: [...h.past, h.present], present: next, future: rest }
}

export function canBack<T>(h: History<T>): boolean {
  return h.past.length > 0
}

export function canForward<T>(h: History<T>): boolean {
  return h.future.length > 0
}
