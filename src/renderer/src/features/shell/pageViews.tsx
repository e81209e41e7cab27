import { type ComponentType, lazy } from 'react'
import type { PageId } from '../../../../shared/pages'
import { collectionViews } from '../collections'

/**
 * The view of each page but Review (the workspace, which the app keeps mounted behind the others).
 * Each page is a component of its own feature folder, loaded when first shown; a test checks every
 * page has one. The collections' come from their registry (`features/collections.ts`).
 */
export const pageViews: Partial<Record<PageId, ComponentType>> = {
  today: lazy(() => import('../triage/TriagePage').then((m) => ({ default: m.TriagePage }))),
  audits: lazy(() => import('../audits/AuditsPage').then((m) => ({ default: m.AuditsPage }))),
  dashboard: lazy(() =>
    import('../dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
  ),
  policies: lazy(() =>
    import('../policies/PoliciesPage').then((m) => ({ default: m.PoliciesPage })),
  ),
  release: lazy(() => import('../release/ReleasePage').then((m) => ({ default: m.ReleasePage }))),
  ...Object.fromEntries(collectionViews.map((c) => [c.page, c.view])),
}
