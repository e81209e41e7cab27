import { type ComponentType, lazy } from 'react'
import type { PageId } from '../../../../shared/pages'

/**
 * The view of each page but Review (the workspace, which the app keeps mounted behind the others).
 * Each page is a component of its own feature folder, loaded when first shown (the Policies
 * page's code editor stays out of the first load); a test checks every page has one.
 */
export const pageViews: Partial<Record<PageId, ComponentType>> = {
  policies: lazy(() =>
    import('../policies/PoliciesPage').then((m) => ({ default: m.PoliciesPage })),
  ),
}
