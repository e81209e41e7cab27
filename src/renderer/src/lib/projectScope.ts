import { type Store, createStore } from './store'

/** What each page keeps outside React for the open project, put back when another one opens. */
const resets = new Set<() => void>()

/** Runs `reset` whenever another project opens (new, open, recent, demo). */
export function onProjectSwitch(reset: () => void): void {
  resets.add(reset)
}

/** A store of the open project's state: back to `initial` when another project opens. */
export function createProjectStore<T>(initial: T): Store<T> {
  const store = createStore(initial)
  onProjectSwitch(() => store.set(initial))
  return store
}

/** Called by the project feed before the page shows another project. */
export function switchProject(): void {
  resets.forEach((reset) => reset())
}
