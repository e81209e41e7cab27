import type { Db } from '../../connection'
import { all, get, pluck, pluckAll, run } from '../../connection'
import { sql } from '../../sql'
import type { EntryRow } from '../changes/entries'

/**
 * What team mode reads and writes to carry triage, audit, setting and CROWDAQ change sets: queues
 * and audits are named on other replicas by the global id of the change set that made them (their
 * local ids differ), and the rows such a change set made.
 */
export type Named = 'queue' | 'audit'

const TABLE: Record<Named, string> = { queue: 'triage_queues', audit: 'audits' }

/** The global id of the change set that made a queue or an audit; undefined for one made before. */
export function makerUid(db: Db, what: Named, id: number): string | undefined {
  return pluck<string>(
    db,
    sql`SELECT c.uid FROM ${sql.raw(TABLE[what])} x JOIN change_sets c ON c.id = x.change_set_id
        WHERE x.id = ${id}`,
  )
}

/** The local id of the queue or audit the change set of global id `uid` made. */
export function madeBy(db: Db, what: Named, uid: string): number | undefined {
  return pluck<number>(
    db,
    sql`SELECT x.id FROM ${sql.raw(TABLE[what])} x JOIN change_sets c ON c.id = x.change_set_id
        WHERE c.uid = ${uid}`,
  )
}

export interface QueueRow {
  from: string
  to: string
  share: number
  seed: number
  author: string
  submissionIds: number[]
}

/** The triage queue a change set started, with its submissions in order. */
export function queueStartedBy(db: Db, changeSetId: number): QueueRow | undefined {
  const q = get<Omit<QueueRow, 'submissionIds'> & { id: number }>(
    db,
    sql`SELECT id, from_day AS "from", to_day AS "to", share, seed, author FROM triage_queues
        WHERE change_set_id = ${changeSetId}`,
  )
  if (!q) return undefined
  const { id, ...row } = q
  const submissionIds = pluckAll<number>(
    db,
    sql`SELECT submission_id FROM triage_items WHERE queue_id = ${id} ORDER BY position`,
  )
  return { ...row, submissionIds }
}

export interface AuditRow {
  name: string
  /** The query sampled, as stored (JSON). */
  filter: string
  seed: number
  targetMargin: number | null
  author: string
}

export function auditDrawnBy(db: Db, changeSetId: number): AuditRow | undefined {
  return get<AuditRow>(
    db,
    sql`SELECT name, filter, seed, target_margin AS targetMargin, author FROM audits
        WHERE change_set_id = ${changeSetId}`,
  )
}

/** The audit items a change set drew: their audit and annotations in order. */
export function itemsDrawnBy(
  db: Db,
  changeSetId: number,
): { auditId: number; annotationIds: number[] } | undefined {
  const rows = all<{ auditId: number; annotationId: number }>(
    db,
    sql`SELECT audit_id AS auditId, annotation_id AS annotationId FROM audit_items
        WHERE change_set_id = ${changeSetId} ORDER BY position`,
  )
  const first = rows[0]
  if (!first) return undefined
  return { auditId: first.auditId, annotationIds: rows.map((r) => r.annotationId) }
}

/** Of `annotationIds`, those the audit does not hold yet (another member may have drawn them). */
export function notYetDrawn(db: Db, auditId: number, annotationIds: readonly number[]): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT value FROM json_each(${JSON.stringify(annotationIds)})
        WHERE value NOT IN (SELECT annotation_id FROM audit_items WHERE audit_id = ${auditId})
        ORDER BY key`,
  )
}

/** Whether a change set recorded entries (triage, audit, setting, CROWDAQ). */
export function hasAnyEntries(db: Db, changeSetId: number): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT 1 FROM change_entries WHERE change_set_id = ${changeSetId} LIMIT 1`,
    ) === 1
  )
}

/**
 * Writes a change set's entries again after every entry there is, and returns them: the latest
 * entry of a key is its value, so a change set placed after others' must hold the later rows.
 */
export function moveEntriesLast(db: Db, changeSetId: number): EntryRow[] {
  const rows = all<EntryRow & { id: number }>(
    db,
    sql`SELECT id, subject, key, value FROM change_entries WHERE change_set_id = ${changeSetId}
        ORDER BY id`,
  )
  if (rows.length === 0) return []
  run(db, sql`DELETE FROM change_entries WHERE change_set_id = ${changeSetId}`)
  for (const r of rows) {
    run(
      db,
      sql`INSERT INTO change_entries (change_set_id, subject, key, value)
          VALUES (${changeSetId}, ${r.subject}, ${r.key}, ${r.value})`,
    )
  }
  return rows.map(({ subject, key, value }) => ({ subject, key, value }))
}
