import type { AuditVerdict } from '../../shared/contract/audits'
import type { ChangeSetKind } from '../../shared/contract/ratings'
import type { TriageMark } from '../../shared/contract/triage'
import type { ExamSettings } from '../../shared/crowdaq/grading'
import type { Db } from '../db/connection'
import { setVerdict } from '../db/queries/audits'
import { createChangeSet } from '../db/queries/changes/sets'
import { type EntryRow, type EntrySubject, insertEntry } from '../db/queries/changes/entries'
import { deleteSetting, writeSetting } from '../db/queries/settings'
import { putMark, setFeedback, setReviewed } from '../db/queries/triage'
import { applyCollectionSubject } from '../collections/entries'

/**
 * What a change set sets, thing by thing (migration 015): the entry is the record another replica
 * replays, and applying it here and there is the same code. Keys name the thing, never a change
 * set; their JSON is written with its properties in one order, so equal keys are equal text.
 */
export type Entry =
  | {
      subject: 'triage.mark'
      key: { queue: number; annotation: number }
      value: { mark: TriageMark; note: string } | null
    }
  | { subject: 'triage.feedback'; key: { queue: number; position: number }; value: string | null }
  /** When the item was reviewed (epoch ms); null: not reviewed. */
  | { subject: 'triage.reviewed'; key: { queue: number; position: number }; value: number | null }
  | {
      subject: 'audit.verdict'
      key: { audit: number; annotation: number }
      value: { verdict: AuditVerdict | null; note: string } | null
    }
  /** A project setting by its key; null: removed, its default applies. */
  | { subject: 'setting'; key: string; value: unknown }
  | { subject: 'crowdaq.exam-settings'; key: { exam: string }; value: ExamSettings }
  /** An exam or tutorial as saved in the app (its JSON spec). */
  | {
      subject: 'crowdaq.question-set'
      key: { kind: 'exam' | 'tutorial'; id: string }
      value: unknown
    }
  /** A HALIE session's or event block's item rating; null clears it (the worker's applies). */
  | { subject: 'halie.rating'; key: { session: number } | { block: number }; value: number | null }

/**
 * Subjects a revert can put back: each key holds one value, set only by the app's own writes.
 * CROWDAQ's are recorded for other replicas but an import also writes what they set.
 */
export const REVERTABLE_SUBJECTS: readonly EntrySubject[] = [
  'triage.mark',
  'triage.feedback',
  'triage.reviewed',
  'audit.verdict',
  'setting',
  'halie.rating',
]

/** What Undo (Ctrl+Z) takes back besides ratings: what a reviewer does key by key. */
export const UNDOABLE_SUBJECTS: readonly EntrySubject[] = [
  'triage.mark',
  'audit.verdict',
  'halie.rating',
]

export function isRevertableSubject(subject: EntrySubject): boolean {
  return REVERTABLE_SUBJECTS.includes(subject)
}

function encodeKey(entry: Entry): string {
  switch (entry.subject) {
    case 'triage.mark':
      return JSON.stringify({ queue: entry.key.queue, annotation: entry.key.annotation })
    case 'triage.feedback':
    case 'triage.reviewed':
      return JSON.stringify({ queue: entry.key.queue, position: entry.key.position })
    case 'audit.verdict':
      return JSON.stringify({ audit: entry.key.audit, annotation: entry.key.annotation })
    case 'setting':
      return JSON.stringify(entry.key)
    case 'crowdaq.exam-settings':
      return JSON.stringify({ exam: entry.key.exam })
    case 'crowdaq.question-set':
      return JSON.stringify({ kind: entry.key.kind, id: entry.key.id })
    case 'halie.rating':
      return 'session' in entry.key
        ? JSON.stringify({ session: entry.key.session })
        : JSON.stringify({ block: entry.key.block })
  }
}

function encodeValue(entry: Entry): string | null {
  if (entry.value === null || entry.value === undefined) return null
  if (entry.subject === 'triage.mark')
    return JSON.stringify({ mark: entry.value.mark, note: entry.value.note })
  if (entry.subject === 'audit.verdict')
    return JSON.stringify({ verdict: entry.value.verdict, note: entry.value.note })
  return JSON.stringify(entry.value)
}

export function encodeEntry(entry: Entry): EntryRow {
  return { subject: entry.subject, key: encodeKey(entry), value: encodeValue(entry) }
}

/** JSON with every object's properties sorted: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/** Two stored values that mean the same (the text may differ: SQLite wrote the first ones). */
export function sameValue(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b
  return a === b || canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b))
}

/**
 * Makes a stored entry so in the tables the app reads. `at` is its change set's time. CROWDAQ's
 * subjects are written by the CROWDAQ code that records them (and would be replayed through it);
 * a collection's subject the core applies (HALIE's ratings) goes to its applier.
 */
export function applyEntry(db: Db, row: EntryRow, at: number): void {
  const key = JSON.parse(row.key) as unknown
  const value = row.value === null ? null : (JSON.parse(row.value) as unknown)
  switch (row.subject) {
    case 'triage.mark': {
      const k = key as { queue: number; annotation: number }
      putMark(db, k.queue, k.annotation, value as { mark: TriageMark; note: string } | null, at)
      return
    }
    case 'triage.feedback': {
      const k = key as { queue: number; position: number }
      setFeedback(db, k.queue, k.position, (value as string | null) ?? '')
      return
    }
    case 'triage.reviewed': {
      const k = key as { queue: number; position: number }
      setReviewed(db, k.queue, k.position, value as number | null)
      return
    }
    case 'audit.verdict': {
      const k = key as { audit: number; annotation: number }
      const v = value as { verdict: AuditVerdict | null; note: string } | null
      setVerdict(db, k.audit, k.annotation, v ?? { verdict: null, note: '' }, at)
      return
    }
    case 'setting':
      if (value === null) deleteSetting(db, key as string)
      else writeSetting(db, key as string, value)
      return
    case 'crowdaq.exam-settings':
    case 'crowdaq.question-set':
      return
    case 'halie.rating':
      applyCollectionSubject(db, row)
      return
  }
}

interface RecordedChange {
  kind: ChangeSetKind
  author: string
  /** What History says it did, in the reviewer's words. */
  description: string
}

/**
 * Writes a change as one change set: its entries, each applied to the tables the app reads. Runs
 * inside the caller's transaction, so the change and its record are one. Entries that hold a time
 * are made from the change set's (`at`, epoch ms).
 */
export function recordChange(
  db: Db,
  change: RecordedChange,
  entries: readonly Entry[] | ((at: number) => readonly Entry[]),
): { id: number; at: number } {
  const changeSet = createChangeSet(db, change)
  for (const entry of typeof entries === 'function' ? entries(changeSet.at) : entries) {
    const row = encodeEntry(entry)
    insertEntry(db, changeSet.id, row)
    applyEntry(db, row, changeSet.at)
  }
  return changeSet
}
