import { describeFilter } from '../../shared/filter'
import type { Db } from '../db/connection'
import { auditResults as recordedAudits } from '../db/queries/audits'

/** One spot-check audit as a release reports it: a share of good items with its interval. */
export interface ReleasedAudit {
  id: number
  /** What was audited: the audit's name and the query it sampled. */
  description: string
  /** When the audit was drawn, epoch ms. */
  finishedAt: number
  /** Items judged yes or no (skipped ones count for neither). */
  sampled: number
  passed: number
  /** The share that passed and its Wilson interval (0…1). */
  precision: number
  interval: { low: number; high: number; confidence: number }
}

/**
 * The audits a release's datasheet lists: every audit with at least one item judged, drawn by the
 * release's moment when it is exported as of one.
 */
export function auditResults(db: Db, asOf: number | undefined): ReleasedAudit[] {
  return recordedAudits(db).flatMap((audit): ReleasedAudit[] => {
    if (audit.precision === null || audit.low === null || audit.high === null) return []
    if (asOf !== undefined && audit.createdAt > asOf) return []
    return [
      {
        id: audit.id,
        description: `${audit.name} (${describeFilter(audit.filter)})`,
        finishedAt: audit.createdAt,
        sampled: audit.yes + audit.no,
        passed: audit.yes,
        precision: audit.precision,
        interval: { low: audit.low, high: audit.high, confidence: 0.95 },
      },
    ]
  })
}
