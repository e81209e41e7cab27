import { type ComponentType, lazy } from 'react'
import type { PageId } from '../../../../shared/pages'

/**
 * The view of each page but Review (the workspace, which the app keeps mounted behind the others).
 * Each page is a component of its own feature folder, loaded when first shown; a test checks every
 * page has one.
 */
export const pageViews: Partial<Record<PageId, ComponentType>> = {
  today: lazy(() => import('../triage/TriagePage').then((m) => ({ default: m.TodayPage }))),
  audits: lazy(() => import('../audits/AuditsPage').then((m) => ({ default: m.AuditsPage }))),
  dashboard: lazy(() =>
    import('../dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
  ),
  policies: lazy(() =>
    import('../policies/PoliciesPage').then((m) => ({ default: m.PoliciesPage })),
  ),
  protoqa: lazy(() => import('../protoqa/ProtoqaPage').then((m) => ({ default: m.ProtoqaPage }))),
  release: lazy(() => import('../release/ReleasePage').then((m) => ({ default: m.ReleasePage }))),
  crowdaq: lazy(() => import('../crowdaq/CrowdaqPage').then((m) => ({ default: m.CrowdaqPage }))),
  halie: lazy(() => import('../halie/HaliePage').then((m) => ({ default: m.HaliePage }))),
}
