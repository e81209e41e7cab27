import type { AuditDetail, AuditVerdict } from '../../shared/contract/audits'
import { UserError } from '../../shared/contract/errors'
import type { AnnotationFilter } from '../../shared/filter'
import { MAX_SEED } from '../../shared/stats/sampleKey'
import { margin, wilson } from '../../shared/stats/wilson'
import { plural } from '../../shared/text'
import { recordChange } from '../changes/entries'
import type { Db } from '../db/connection'
import {
  appendAuditItems,
  auditItems,
  auditResult,
  drawnIds,
  insertAudit,
  requireAuditItem,
} from '../db/queries/audits'
import { createChangeSet, describeChangeSet, discardChangeSet } from '../db/queries/changes/sets'
import { drawIds } from './draw'

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
 * `n` more items of the audit's seeded order that it does not hold yet, drawn by the change set
 * given. The order is fixed by the seed, so the sample so far plus these is the sample a larger
 * first draw would have given.
 */
function extend(
  db: Db,
  auditId: number,
  filter: AnnotationFilter,
  seed: number,
  n: number,
  changeSetId: number,
): number {
  const next = drawIds(db, filter, seed, n, new Set(drawnIds(db, auditId))).ids
  appendAuditItems(db, auditId, next, changeSetId)
  return next.length
}

/** A new audit: a seeded, reproducible random sample of `n` annotations of the query. */
export function drawAudit(db: Db, options: DrawOptions): AuditDetail {
  const seed = options.seed ?? randomSeed()
  const auditId = db
    .transaction(() => {
      const changeSet = createChangeSet(db, {
        kind: 'audit',
        author: options.author,
        description: `Drew audit “${options.name}”`,
      })
      const id = insertAudit(db, {
        name: options.name,
        filter: options.filter,
        seed,
        targetMargin: options.targetMargin ?? null,
        author: options.author,
        changeSetId: changeSet.id,
        at: changeSet.at,
      })
      const drawn = extend(db, id, options.filter, seed, options.n, changeSet.id)
      if (drawn === 0) {
        throw new UserError({
          type: 'invalid-argument',
          code: 'empty-audit',
          message: 'The query selects no annotations: nothing to audit.',
          field: 'filter',
        })
      }
      describeChangeSet(
        db,
        changeSet.id,
        `Drew audit ${id} “${options.name}”: ${plural(drawn, 'item')} (seed ${seed})`,
      )
      return id
    })
    .immediate()
  return auditDetail(db, auditId)
}

/** Draws `n` more items (fewer when the query holds no more) as one change set. */
function drawMoreNow(db: Db, auditId: number, n: number, author: string, why = ''): void {
  const { filter, seed, name } = auditResult(db, auditId)
  const changeSet = createChangeSet(db, { kind: 'audit', author, description: '' })
  const drawn = extend(db, auditId, filter, seed, n, changeSet.id)
  if (drawn === 0) {
    // The query holds no more: a change set that drew nothing is not kept.
    discardChangeSet(db, changeSet.id)
    return
  }
  describeChangeSet(
    db,
    changeSet.id,
    `Drew ${plural(drawn, 'more item')} for audit ${auditId} “${name}”${why}`,
  )
}

export function drawMore(db: Db, auditId: number, n: number, author: string): AuditDetail {
  db.transaction(() => drawMoreNow(db, auditId, n, author)).immediate()
  return auditDetail(db, auditId)
}

interface Verdict {
  auditId: number
  annotationId: number
  /** null clears the verdict. */
  verdict: AuditVerdict | null
  /** Left out, the item keeps the note it had. */
  note?: string | undefined
  author: string
}

/**
 * Records a verdict as one change set (the same verdict and note again records nothing). An audit
 * with a target margin whose every item is decided and whose interval is still wider than
 * ±target draws the next few items, as a change set of its own, so the reviewer keeps going and
 * undoing the verdict leaves them.
 */
export function judge(db: Db, v: Verdict): AuditDetail {
  const { auditId, annotationId, verdict } = v
  db.transaction(() => {
    const item = requireAuditItem(db, auditId, annotationId)
    const value = { verdict, note: v.note ?? item.note }
    if (value.verdict === item.verdict && value.note === item.note) return
    const { name } = auditResult(db, auditId)
    const description = `${verdict === null ? 'Cleared the verdict of' : `Judged ${verdict}:`} item ${item.position} of audit ${auditId} “${name}”`
    recordChange(db, { kind: 'audit', author: v.author, description }, [
      { subject: 'audit.verdict', key: { audit: auditId, annotation: annotationId }, value },
    ])
    const result = auditResult(db, auditId)
    if (result.targetMargin === null) return
    const open = result.sample - result.judged - result.skipped
    const m = margin(wilson(result.yes, result.judged))
    if (open === 0 && (m === null || m > result.targetMargin)) {
      drawMoreNow(db, auditId, TOP_UP, v.author, ' (its interval is still wider than its target)')
    }
  }).immediate()
  return auditDetail(db, auditId)
}
