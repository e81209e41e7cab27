import type { AnnotationFilter } from '../../../../shared/filter'
import { PAGES, type PageId } from '../../../../shared/pages'
import { useEffect, useState } from 'react'
import { createProjectStore } from '../../lib/projectScope'
import { useStore } from '../../lib/store'

/**
 * The page on screen. The review workspace stays mounted behind the others, so its grid keeps its
 * place; another project opens on Review.
 */
export const currentPage = createProjectStore<PageId>('review')

/**
 * A request to show one of a page's tabs (a collection's release from the Release page); `seq`
 * makes a repeat a new request.
 */
export const pageTabRequest = createProjectStore<{ page: PageId; tab: string; seq: number } | null>(
  null,
)

/**
 * A page's tab: its own buttons set it, and `goToPage(page, tab)` moves it. The request is taken
 * once, so a later visit opens as any other.
 */
export function usePageTab<T extends string>(
  page: PageId,
  tabs: readonly T[],
  initial: T,
): [T, (tab: T) => void] {
  const request = useStore(pageTabRequest)
  const asked = request?.page === page ? tabs.find((t) => t === request.tab) : undefined
  const [tab, setTab] = useState<T>(asked ?? initial)
  const [seen, setSeen] = useState(request)
  if (request !== seen) {
    setSeen(request)
    if (asked) setTab(asked)
  }
  useEffect(() => {
    if (asked) pageTabRequest.set(null)
  }, [asked])
  return [tab, setTab]
}

/** Shows page `id`, on its tab `tab` when given. */
export function goToPage(id: PageId, tab?: string): void {
  if (tab !== undefined)
    pageTabRequest.set({ page: id, tab, seq: (pageTabRequest.get()?.seq ?? 0) + 1 })
  currentPage.set(id)
}

/** The page at a 1-based position of the tabs (the digit of Alt+1 …), if there is one. */
export function pageAt(position: number): PageId | null {
  return PAGES[position - 1]?.id ?? null
}

/**
 * The filter of what the review grid shows now, kept by the workspace, for pages that act on
 * "what the grid shows" (an export, an audit drawn from the current query).
 */
export const reviewFilter = createProjectStore<AnnotationFilter>({})

/**
 * A request to show a filter in the review grid (with a worker's panel open, when `worker` is
 * set, or History on a change set); `seq` makes a repeat of the same filter a new request.
 */
export const reviewRequest = createProjectStore<{
  /** Absent: the grid keeps its filter. */
  filter?: AnnotationFilter
  worker?: string
  /** A change set to show in the History panel. */
  changeSet?: number
  seq: number
} | null>(null)

/** Opens the review page on `filter` (from a chart cell, an audit, a policy's sample, …). */
export function showInReview(filter: AnnotationFilter): void {
  reviewRequest.set((previous) => ({ filter, seq: (previous?.seq ?? 0) + 1 }))
  goToPage('review')
}

/** Opens the review page on one worker's annotations with the worker panel beside them. */
export function showWorkerInReview(workerId: string): void {
  reviewRequest.set((previous) => ({
    filter: { workers: [workerId] },
    worker: workerId,
    seq: (previous?.seq ?? 0) + 1,
  }))
  goToPage('review')
}

/** Opens the review page with History on one change set (a policy just applied, …). */
export function showChangeSet(changeSet: number): void {
  reviewRequest.set((previous) => ({ changeSet, seq: (previous?.seq ?? 0) + 1 }))
  goToPage('review')
}
