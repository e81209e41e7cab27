import type { ComponentType } from 'react'
import type { PageId } from '../../../../shared/pages'
import { PoliciesPage } from '../policies/PoliciesPage'

/**
 * The view of each page but Review (the workspace, which the app keeps mounted behind the others).
 * Each page is a component of its own feature folder; a test checks every page has one.
 */
export const pageViews: Partial<Record<PageId, ComponentType>> = {
  policies: PoliciesPage,
}
