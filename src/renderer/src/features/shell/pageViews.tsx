import { type ComponentType, Suspense, lazy } from 'react'
import type { PageId } from '../../../../shared/pages'

/**
 * A page loaded when first shown: its code (and a chart library) stays out of the first load,
 * and this list can be read without a window (the pages test runs in Node).
 */
function lazyPage(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Page = lazy(load)
  return function LazyPage() {
    return (
      <Suspense fallback={<div className="empty-state">Loading…</div>}>
        <Page />
      </Suspense>
    )
  }
}

/**
 * The view of each page but Review (the workspace, which the app keeps mounted behind the others).
 * Each page is a component of its own feature folder; a test checks every page has one.
 */
export const pageViews: Partial<Record<PageId, ComponentType>> = {
  today: lazyPage(() => import('../today/TodayPage').then((m) => ({ default: m.TodayPage }))),
  audits: lazyPage(() => import('../audits/AuditsPage').then((m) => ({ default: m.AuditsPage }))),
  dashboard: lazyPage(() =>
    import('../dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
  ),
}
