import { Suspense, lazy } from 'react'

// Loaded when the page is first opened: its code stays out of the first load, and the page
// registry can be read where there is no window (main, tests).
const ProtoqaPage = lazy(() => import('./ProtoqaPage').then((m) => ({ default: m.ProtoqaPage })))

/** The ProtoQA page, as the page registry names it. */
export function ProtoqaPageView() {
  return (
    <Suspense fallback={null}>
      <ProtoqaPage />
    </Suspense>
  )
}
