import { createContext, useContext } from 'react'
import type { GridApi } from 'ag-grid-community'
import type { ReviewRow } from '../../../../shared/contract/review'
import { type AnnotationFilter, DEFAULT_SORT, type SortSpec } from '../../../../shared/filter'
import { createStore, type Store } from '../../lib/store'
import {
  type FilterHistory,
  changeFilter,
  filterBack,
  filterForward,
  initialFilterHistory,
} from './filterHistory'

/**
 * What is selected: explicit rows (ids, with the rows as loaded, for copying), or every row of a
 * query — kept as the filter itself, never as a list, so bulk actions apply to the whole query.
 */
export type Selection =
  | { mode: 'rows'; rows: ReadonlyMap<number, ReviewRow> }
  | { mode: 'query'; filter: AnnotationFilter; total: number }

type SidePanel =
  | { kind: 'none' }
  | { kind: 'story' }
  | { kind: 'worker'; workerId: string }
  /** `changeSet`: the change set History was opened on, shown and marked. */
  | { kind: 'history'; changeSet?: number }

interface FocusedRow {
  row: ReviewRow
  index: number
}

/** One project's review workspace state; created per open project. */
export interface WorkspaceModel {
  filter: Store<FilterHistory>
  sort: Store<SortSpec>
  selection: Store<Selection>
  panel: Store<SidePanel>
  focused: Store<FocusedRow | null>
  /** The filter of the rows on screen (what cells highlight); lags `filter` by one answer. */
  shown: Store<AnnotationFilter>
  /** Exact total of the current query; null while the first page is loading. */
  total: Store<number | null>
  grid: Store<GridApi<ReviewRow> | null>
}

export const NO_SELECTION: Selection = { mode: 'rows', rows: new Map() }

export function createWorkspaceModel(): WorkspaceModel {
  return {
    filter: createStore(initialFilterHistory()),
    sort: createStore<SortSpec>(DEFAULT_SORT),
    selection: createStore<Selection>(NO_SELECTION),
    panel: createStore<SidePanel>({ kind: 'none' }),
    focused: createStore<FocusedRow | null>(null),
    shown: createStore<AnnotationFilter>({}),
    total: createStore<number | null>(null),
    grid: createStore<GridApi<ReviewRow> | null>(null),
  }
}

export const WorkspaceContext = createContext<WorkspaceModel | null>(null)

export function useWorkspace(): WorkspaceModel {
  const model = useContext(WorkspaceContext)
  if (!model) throw new Error('useWorkspace outside the workspace')
  return model
}

export function currentFilter(model: WorkspaceModel): AnnotationFilter {
  return model.filter.get().history.present
}

/** Applies a filter change; the selection of the old query no longer means anything. */
export function setFilter(
  model: WorkspaceModel,
  next: AnnotationFilter,
  options: { typing?: keyof AnnotationFilter } = {},
): void {
  model.filter.set((s) => changeFilter(s, next, options))
}

export function updateFilter(
  model: WorkspaceModel,
  update: (f: AnnotationFilter) => AnnotationFilter,
  options: { typing?: keyof AnnotationFilter } = {},
): void {
  setFilter(model, update(currentFilter(model)), options)
}

export function goBack(model: WorkspaceModel): void {
  model.filter.set(filterBack)
}

export function goForward(model: WorkspaceModel): void {
  model.filter.set(filterForward)
}

/** Adds a value to a list field of the filter (several workers, dimensions …). */
export function addToFilter<K extends 'workers' | 'stories' | 'dimensions'>(
  model: WorkspaceModel,
  field: K,
  value: NonNullable<AnnotationFilter[K]>[number],
): void {
  updateFilter(model, (f) => {
    const list = (f[field] ?? []) as unknown[]
    return list.includes(value) ? f : { ...f, [field]: [...list, value] }
  })
}
