import { lazy } from 'react'

/** ProtoQA's page view, loaded when first shown; its tab and key are `shared/protoqa/page.ts`. */
export const protoqaView = {
  page: 'protoqa',
  view: lazy(() => import('./ProtoqaPage').then((m) => ({ default: m.ProtoqaPage }))),
} as const
