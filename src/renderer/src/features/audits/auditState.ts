import type { AuditDetail, AuditResult } from '../../../../shared/contract/audits'
import { margin } from '../../../../shared/stats/wilson'

/** `80.0%`; a dash for nothing judged. */
export function percent(x: number | null, digits = 1): string {
  return x === null ? '–' : `${(x * 100).toFixed(digits)}%`
}

/** "80.0% (95% CI 66.9–88.8%)" */
export function describeInterval(r: Pick<AuditResult, 'precision' | 'low' | 'high'>): string {
  if (r.precision === null) return 'nothing judged yet'
  return `${percent(r.precision)} (95% interval ${percent(r.low)}–${percent(r.high)})`
}

/** "± 11.0 points" */
export function describeMargin(r: Pick<AuditResult, 'precision' | 'low' | 'high'>): string {
  const m = margin({ proportion: r.precision, low: r.low, high: r.high })
  return m === null ? '' : `±${(m * 100).toFixed(1)} points`
}

/** The position after `from` (wrapping) whose item has no verdict; null when all have one. */
export function nextOpen(detail: AuditDetail, from: number): number | null {
  const n = detail.items.length
  for (let step = 1; step <= n; step++) {
    const i = (from + step) % n
    if (detail.items[i]?.verdict === null) return i
  }
  return null
}
