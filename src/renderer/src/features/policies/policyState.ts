import type {
  PolicyApplied,
  PolicyOutline,
  PolicyReport,
} from '../../../../shared/contract/policies'
import { createProjectStore } from '../../lib/projectScope'
import { type Store, useStore } from '../../lib/store'

/**
 * What the Policies page works on, kept while another page is on screen (a sample opened in the
 * review grid, then back to apply); another project starts afresh.
 */
export const policyState = {
  fileName: createProjectStore('policy.ts'),
  path: createProjectStore(''),
  source: createProjectStore(''),
  outline: createProjectStore<PolicyOutline | null>(null),
  values: createProjectStore<Record<string, string | boolean>>({}),
  report: createProjectStore<PolicyReport | null>(null),
  /** What the report was made from (script, file name, parameters): Apply confirms only that. */
  reportOf: createProjectStore(''),
  applied: createProjectStore<PolicyApplied | null>(null),
  /** The change set that reverted the applied one, once reverted from this page. */
  revertedBy: createProjectStore<number | null>(null),
  watch: createProjectStore(false),
}

/** A kept value with a setter, like `useState`. */
export function useKept<T>(store: Store<T>): [T, Store<T>['set']] {
  return [useStore(store), store.set]
}
