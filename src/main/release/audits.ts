import type { Db } from '../db/connection'

/** One spot-check audit as a release reports it: a share of good items with its interval. */
export interface AuditResult {
  id: number
  /** What was audited, e.g. "100 annotations rated 3". */
  description: string
  /** Epoch ms. */
  finishedAt: number
  sampled: number
  passed: number
  /** The share that passed and its confidence interval (0…1). */
  precision: number
  interval: { low: number; high: number; confidence: number }
}

/**
 * The audits a release's datasheet lists. The project has no audits yet, so there are none; the
 * audits work fills this in from its tables.
 */
export function auditResults(_db: Db, _asOf: number | undefined): AuditResult[] {
  return []
}
