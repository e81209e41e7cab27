import { lazy } from 'react'

/** HALIE's page view, loaded when first shown; its tab and key are `shared/halie/page.ts`. */
export const halieView = {
  page: 'halie',
  view: lazy(() => import('./HaliePage').then((m) => ({ default: m.HaliePage }))),
} as const
