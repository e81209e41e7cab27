import type { AuditItem, AuditResult, AuditVerdict } from '../../../shared/contract/audits'
import { UserError } from '../../../shared/contract/errors'
import { type AnnotationFilter, annotationFilterSchema } from '../../../shared/filter'
import { wilson } from '../../../shared/stats/wilson'
import type { Db } from '../connection'
import { all, get, pluck, pluckAll, run } from '../connection'
import { sql } from '../sql'
import { annotationRows } from './annotations'
import { countable } from './annotationCounts'
import { constraintsOf, countResolved } from './review/count'
import { walkPlan } from './review/plan'
import { matchingAnnotationIds } from './review/query'

export interface NewAudit {
  name: string
  filter: AnnotationFilter
  seed: number
  targetMargin: number | null
  author: string
  /** The change set that draws it, and its time (epoch ms). */
  changeSetId: number
  at: number
}

export function insertAudit(db: Db, audit: NewAudit): number {
  const result = run(
    db,
    sql`INSERT INTO audits (name, filter, seed, target_margin, author, created_at, change_set_id)
        VALUES (${audit.name}, ${JSON.stringify(audit.filter)}, ${audit.seed},
          ${audit.targetMargin}, ${audit.author}, ${audit.at}, ${audit.changeSetId})`,
  )
  return Number(result.lastInsertRowid)
}

/** Every annotation id the query selects, streamed (any order). */
export function candidateIds(db: Db, filter: AnnotationFilter): Iterable<number> {
  const ids = matchingAnnotationIds(db, filter)
  if (ids === null) return []
  return db
    .prepare(ids.text)
    .pluck()
    .iterate(...ids.values) as IterableIterator<number>
}

/**
 * What a draw by probing needs of the query: the annotations' id range and the query's exact
 * total from the summary; null when the summary cannot count the query (text, story filters).
 */
export function probeSource(
  db: Db,
  filter: AnnotationFilter,
): { lo: number; hi: number; total: number } | null {
  const c = constraintsOf(db, filter)
  if (c.none || !countable(c)) return null
  const span = get<{ lo: number | null; hi: number | null }>(
    db,
    // Apart: SQLite seeks the end of the table for a lone min() or max(), not for both at once.
    sql`SELECT (SELECT min(id) FROM annotations) AS lo, (SELECT max(id) FROM annotations) AS hi`,
  )
  if (span?.lo == null || span.hi == null) return null
  return { lo: span.lo, hi: span.hi, total: countResolved(db, filter, c) }
}

/** Which of `ids` the query selects: each looked up by id, every field tested on its row. */
export function selectedAmong(
  db: Db,
  filter: AnnotationFilter,
  ids: readonly number[],
): Set<number> {
  const c = constraintsOf(db, filter)
  if (c.none || ids.length === 0) return new Set()
  const plan = walkPlan(db, c, 'table')
  const branches = plan.branches.map(
    (b) =>
      sql`SELECT a.id FROM annotations a
          WHERE a.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${b}`,
  )
  return new Set(pluckAll<number>(db, sql.join(branches, ' UNION ALL ')))
}

export function drawnIds(db: Db, auditId: number): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT annotation_id FROM audit_items WHERE audit_id = ${auditId} ORDER BY position`,
  )
}

/** Appends items after the audit's last position, drawn by the change set given. */
export function appendAuditItems(
  db: Db,
  auditId: number,
  annotationIds: readonly number[],
  changeSetId: number,
): void {
  if (annotationIds.length === 0) return
  run(
    db,
    sql`INSERT INTO audit_items (audit_id, position, annotation_id, change_set_id)
        SELECT ${auditId}, (SELECT coalesce(max(position), 0) FROM audit_items WHERE audit_id = ${auditId}) + key + 1,
          value, ${changeSetId}
        FROM json_each(${JSON.stringify(annotationIds)})`,
  )
}

/** An item's position, verdict and note; a not-found error when the audit does not hold it. */
export function requireAuditItem(
  db: Db,
  auditId: number,
  annotationId: number,
): { position: number; verdict: AuditVerdict | null; note: string } {
  const item = get<{ position: number; verdict: AuditVerdict | null; note: string }>(
    db,
    sql`SELECT position, verdict, note FROM audit_items
        WHERE audit_id = ${auditId} AND annotation_id = ${annotationId}`,
  )
  if (!item) {
    if (pluck(db, sql`SELECT 1 FROM audits WHERE id = ${auditId}`) === undefined)
      throw noSuchAudit(auditId)
    throw new UserError({
      type: 'not-found',
      code: 'no-such-audit-item',
      message: `Annotation ${annotationId} is not in audit ${auditId}.`,
      field: 'annotationId',
    })
  }
  return item
}

/** Sets an item's verdict and note as the change set at `at` left them. */
export function setVerdict(
  db: Db,
  auditId: number,
  annotationId: number,
  value: { verdict: AuditVerdict | null; note: string },
  at: number,
): void {
  run(
    db,
    sql`UPDATE audit_items SET verdict = ${value.verdict},
          judged_at = ${value.verdict === null ? null : at}, note = ${value.note}
        WHERE audit_id = ${auditId} AND annotation_id = ${annotationId}`,
  )
}

interface AuditRow {
  id: number
  name: string
  filter: string
  seed: number
  targetMargin: number | null
  author: string
  createdAt: number
  sample: number
  yes: number
  no: number
  skipped: number
}

function toResult(row: AuditRow): AuditResult {
  const judged = row.yes + row.no
  const p = wilson(row.yes, judged)
  return {
    id: row.id,
    name: row.name,
    filter: annotationFilterSchema.parse(JSON.parse(row.filter)),
    seed: row.seed,
    sample: row.sample,
    judged,
    yes: row.yes,
    no: row.no,
    skipped: row.skipped,
    precision: p.proportion,
    low: p.low,
    high: p.high,
    targetMargin: row.targetMargin,
    author: row.author,
    createdAt: row.createdAt,
  }
}

const AUDIT_ROWS = sql`SELECT au.id, au.name, au.filter, au.seed, au.target_margin AS targetMargin,
      au.author, au.created_at AS createdAt,
      (SELECT count(*) FROM audit_items i WHERE i.audit_id = au.id) AS sample,
      (SELECT count(*) FROM audit_items i WHERE i.audit_id = au.id AND i.verdict = 'yes') AS yes,
      (SELECT count(*) FROM audit_items i WHERE i.audit_id = au.id AND i.verdict = 'no') AS no,
      (SELECT count(*) FROM audit_items i WHERE i.audit_id = au.id AND i.verdict = 'skip') AS skipped
    FROM audits au`

/**
 * Audit results, newest first: per audit its name, query, sample, judged counts and the share of
 * yes with a Wilson 95 % interval. Read-only; what policies and the release datasheet read.
 */
export function auditResults(db: Db): AuditResult[] {
  return all<AuditRow>(db, sql`${AUDIT_ROWS} ORDER BY au.id DESC`).map(toResult)
}

export function auditResult(db: Db, auditId: number): AuditResult {
  const row = get<AuditRow>(db, sql`${AUDIT_ROWS} WHERE au.id = ${auditId}`)
  if (!row) throw noSuchAudit(auditId)
  return toResult(row)
}

function noSuchAudit(auditId: number): UserError {
  return new UserError({
    type: 'not-found',
    code: 'no-such-audit',
    message: `No audit ${auditId}.`,
    field: 'auditId',
  })
}

export function auditItems(db: Db, auditId: number): AuditItem[] {
  const items = all<Omit<AuditItem, 'row'>>(
    db,
    sql`SELECT position, annotation_id AS annotationId, verdict, note FROM audit_items
        WHERE audit_id = ${auditId} ORDER BY position`,
  )
  const rows = new Map(
    annotationRows(
      db,
      items.map((i) => i.annotationId),
    ).map((r) => [r.id, r]),
  )
  return items.map((i) => ({ ...i, row: rows.get(i.annotationId) ?? null }))
}
