import type { AuditDetail, AuditVerdict } from '../../shared/contract/audits'
import { UserError } from '../../shared/contract/errors'
import type { AnnotationFilter } from '../../shared/filter'
import { MAX_SEED, smallestKeys } from '../../shared/stats/sampleKey'
import { margin, wilson } from '../../shared/stats/wilson'
import type { Db } from '../db/connection'
import {
  appendAuditItems,
  auditItems,
  auditResult,
  candidateIds,
  drawnIds,
  insertAudit,
  setVerdict,
} from '../db/queries/audits'

/** Items drawn at a time when an audit keeps sampling toward its target margin. */
const TOP_UP = 10

export interface DrawOptions {
  name: string
  filter: AnnotationFilter
  n: number
  seed?: number
  targetMargin?: number
  author: string
}

export function randomSeed(): number {
  return Math.floor(Math.random() * (MAX_SEED + 1))
}

export function auditDetail(db: Db, auditId: number): AuditDetail {
  return { result: auditResult(db, auditId), items: auditItems(db, auditId) }
}

/**
 * `n` more items of the audit's seeded order that it does not hold yet. The order is fixed by the
 * seed, so the sample so far plus these is the sample a larger first draw would have given.
 */
function extend(
  db: Db,
  auditId: number,
  filter: AnnotationFilter,
  seed: number,
  n: number,
): number {
  const held = drawnIds(db, auditId)
  const have = new Set(held)
  const next = smallestKeys(candidateIds(db, filter), seed, held.length + n)
    .filter((id) => !have.has(id))
    .slice(0, n)
  appendAuditItems(db, auditId, next)
  return next.length
}

/** A new audit: a seeded, reproducible random sample of `n` annotations of the query. */
export function drawAudit(db: Db, options: DrawOptions): AuditDetail {
  const seed = options.seed ?? randomSeed()
  const auditId = db
    .transaction(() => {
      const id = insertAudit(db, {
        name: options.name,
        filter: options.filter,
        seed,
        targetMargin: options.targetMargin ?? null,
        author: options.author,
      })
      const drawn = extend(db, id, options.filter, seed, options.n)
      if (drawn === 0) {
        throw new UserError({
          type: 'invalid-argument',
          code: 'empty-audit',
          message: 'The query selects no annotations: nothing to audit.',
          field: 'filter',
        })
      }
      return id
    })
    .immediate()
  return auditDetail(db, auditId)
}

export function drawMore(db: Db, auditId: number, n: number): AuditDetail {
  db.transaction(() => {
    const { filter, seed } = auditResult(db, auditId)
    extend(db, auditId, filter, seed, n)
  }).immediate()
  return auditDetail(db, auditId)
}

/**
 * Records a verdict. An audit with a target margin whose every item is decided and whose
 * interval is still wider than ±target draws the next few items, so the reviewer keeps going.
 */
export function judge(
  db: Db,
  auditId: number,
  annotationId: number,
  verdict: AuditVerdict | null,
  note?: string,
): AuditDetail {
  db.transaction(() => {
    setVerdict(db, auditId, annotationId, verdict, note)
    const result = auditResult(db, auditId)
    if (result.targetMargin === null) return
    const open = result.sample - result.judged - result.skipped
    const m = margin(wilson(result.yes, result.judged))
    if (open === 0 && (m === null || m > result.targetMargin)) {
      extend(db, auditId, result.filter, result.seed, TOP_UP)
    }
  }).immediate()
  return auditDetail(db, auditId)
}
