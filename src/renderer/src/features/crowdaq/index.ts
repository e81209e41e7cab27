import { lazy } from 'react'

/** CROWDAQ's page view, loaded when first shown; its tab and key are `shared/crowdaq/page.ts`. */
export const crowdaqView = {
  page: 'crowdaq',
  view: lazy(() => import('./CrowdaqPage').then((m) => ({ default: m.CrowdaqPage }))),
} as const
