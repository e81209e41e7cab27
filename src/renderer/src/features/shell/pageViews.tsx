import { type ComponentType, lazy } from 'react'
import type { PageId } from '../../../../shared/pages'

/**
 * The view of each page but Review (the workspace, which the app keeps mounted behind the others).
 * Each page is a component of its own feature folder, loaded when first shown; a test checks every
 * page has one.
 */
export const pageViews: Partial<Record<PageId, ComponentType>> = {
  protoqa: lazy(() => import('../protoqa/ProtoqaPage').then((m) => ({ default: m.ProtoqaPage }))),
  release: lazy(() => import('../release/ReleasePage').then((m) => ({ default: m.ReleasePage }))),
}
