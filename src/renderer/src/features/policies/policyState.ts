import type {
  PolicyApplied,
  PolicyOutline,
  PolicyReport,
} from '../../../../shared/contract/policies'
import { type Store, createStore, useStore } from '../../lib/store'

/**
 * What the Policies page works on, kept while another page is on screen (a sample opened in the
 * review grid, then back to apply).
 */
export const policyState = {
  fileName: createStore('policy.ts'),
  path: createStore(''),
  source: createStore(''),
  outline: createStore<PolicyOutline | null>(null),
  values: createStore<Record<string, string | boolean>>({}),
  report: createStore<PolicyReport | null>(null),
  /** What the report was made from (script, file name, parameters): Apply confirms only that. */
  reportOf: createStore(''),
  applied: createStore<PolicyApplied | null>(null),
  /** The change set that reverted the applied one, once reverted from this page. */
  revertedBy: createStore<number | null>(null),
  watch: createStore(false),
}

/** A kept value with a setter, like `useState`. */
export function useKept<T>(store: Store<T>): [T, Store<T>['set']] {
  return [useStore(store), store.set]
}
