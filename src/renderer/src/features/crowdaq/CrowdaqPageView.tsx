import { Suspense, lazy } from 'react'

// Loaded when first shown: the page's code stays out of the start-up bundle, and the page list
// can be read without a window (the API client needs one).
const CrowdaqPage = lazy(() => import('./CrowdaqPage').then((m) => ({ default: m.CrowdaqPage })))

export function CrowdaqPageView() {
  return (
    <Suspense fallback={<p className="note">Loading…</p>}>
      <CrowdaqPage />
    </Suspense>
  )
}
