import { z } from 'zod'
import { annotationFilterSchema } from '../filter'
import { MAX_SEED } from '../stats/sampleKey'
import { call } from './define'
import type { ReviewRow } from './review'

export const AUDIT_VERDICTS = ['yes', 'no', 'skip'] as const
export type AuditVerdict = (typeof AUDIT_VERDICTS)[number]

/**
 * One audit's result as policies and the release datasheet read it: the sample drawn, what was
 * judged (yes and no; skip is not judged) and the share of yes with its Wilson 95 % interval.
 */
export interface AuditResult {
  id: number
  name: string
  /** The query sampled. */
  filter: z.output<typeof annotationFilterSchema>
  seed: number
  /** Items drawn. */
  sample: number
  judged: number
  yes: number
  no: number
  skipped: number
  /** yes / judged; null while nothing is judged. */
  precision: number | null
  low: number | null
  high: number | null
  /** "Keep sampling until the interval is within ±targetMargin"; null for a fixed sample. */
  targetMargin: number | null
  author: string
  /** Epoch ms. */
  createdAt: number
}

export interface AuditItem {
  position: number
  annotationId: number
  verdict: AuditVerdict | null
  note: string
  /** The annotation as the grid shows it; null if it is no longer in the project. */
  row: ReviewRow | null
}

export interface AuditDetail {
  result: AuditResult
  items: AuditItem[]
}

const seedSchema = z.number().int().min(0).max(MAX_SEED)
const auditId = z.number().int().positive()

const auditDrawSchema = z.object({
  name: z.string().trim().min(1).max(200),
  filter: annotationFilterSchema.default({}),
  n: z.number().int().min(1).max(10_000).default(50),
  seed: seedSchema.optional(),
  targetMargin: z.number().gt(0).max(0.5).optional(),
})
export type AuditDrawInput = z.input<typeof auditDrawSchema>

export const auditCalls = {
  'audits.list': call(z.object({})).returns<AuditResult[]>(),
  'audits.get': call(z.object({ auditId })).returns<AuditDetail>(),
  /** Draws a new audit: a seeded random sample of `n` annotations of the query. */
  'audits.draw': call(auditDrawSchema).returns<AuditDetail>(),
  /** Draws `n` more items of the same seeded order, never repeating one. */
  'audits.drawMore': call(
    z.object({ auditId, n: z.number().int().min(1).max(10_000).default(10) }),
  ).returns<AuditDetail>(),
  /**
   * Judges one item (null clears the verdict). With a target margin, judging the last open item
   * of an audit whose interval is still wider than ±target draws the next items by itself.
   */
  'audits.judge': call(
    z.object({
      auditId,
      annotationId: z.number().int().positive(),
      verdict: z.enum(AUDIT_VERDICTS).nullable(),
      note: z.string().max(2000).optional(),
    }),
  ).returns<AuditDetail>(),
}
