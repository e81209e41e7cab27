import { UserError } from '../../shared/contract/errors'
import type { AnnotationFilter } from '../../shared/filter'
import { applyEntry } from '../changes/entries'
import { applyCollectionEntry } from '../collections/entries'
import { entryKeysOf } from '../collections/teams'
import type { Db } from '../db/connection'
import { appendAuditItems, insertAudit } from '../db/queries/audits'
import {
  type EntryRow,
  type EntrySubject,
  entriesOf,
  insertEntry,
} from '../db/queries/changes/entries'
import {
  type AuditRow,
  type Named,
  type QueueRow,
  auditDrawnBy,
  itemsDrawnBy,
  madeBy,
  makerUid,
  notYetDrawn,
  queueStartedBy,
} from '../db/queries/team/entries'
import { insertQueue } from '../db/queries/triage'

/**
 * How triage, audit, setting and CROWDAQ change sets travel: the rows they made (a queue started,
 * an audit drawn, more items drawn) and their entries, with every queue and audit named by the
 * global id of the change set that made it, and a collection's rows as the collection names them
 * on every replica (`entryKeys` of its team declaration: a HALIE session by its external id). Applying writes the same rows and stores and applies
 * the entries with `applyEntry`, as `recordChange` does for local work.
 */
export interface EntriesPayload {
  queue?: QueueRow
  audit?: AuditRow
  drawn?: { audit: string; annotations: number[] }
  /** [subject, key (queues and audits by global id), value as stored]. */
  entries: [EntrySubject, unknown, string | null][]
}

/** Which property of a subject's key names a queue or an audit. */
const NAMED: Partial<Record<EntrySubject, Named>> = {
  'triage.mark': 'queue',
  'triage.feedback': 'queue',
  'triage.reviewed': 'queue',
  'audit.verdict': 'audit',
}

function unnamed(what: Named, id: number | string): UserError {
  return new UserError({
    type: 'conflict',
    code: 'not-shared',
    message:
      typeof id === 'number'
        ? `${what === 'queue' ? 'Triage queue' : 'Audit'} ${id} was made before this project recorded change sets, so the team cannot name it; start a new one.`
        : `The team's log names a ${what} this replica lacks (made by change set ${id}).`,
  })
}

export function encodeEntries(db: Db, changeSetId: number): EntriesPayload {
  const payload: EntriesPayload = { entries: [] }
  const queue = queueStartedBy(db, changeSetId)
  if (queue) payload.queue = queue
  const audit = auditDrawnBy(db, changeSetId)
  if (audit) payload.audit = audit
  const drawn = itemsDrawnBy(db, changeSetId)
  if (drawn) {
    const uid = makerUid(db, 'audit', drawn.auditId)
    if (uid === undefined) throw unnamed('audit', drawn.auditId)
    payload.drawn = { audit: uid, annotations: drawn.annotationIds }
  }
  for (const row of entriesOf(db, changeSetId)) {
    const named = NAMED[row.subject]
    let key = JSON.parse(row.key) as unknown
    if (named) {
      const k = key as Record<Named, number>
      const uid = makerUid(db, named, k[named])
      if (uid === undefined) throw unnamed(named, k[named])
      key = { ...k, [named]: uid }
    }
    const shared = entryKeysOf(row.subject)
    if (shared) key = shared.toShared(db, key)
    payload.entries.push([row.subject, key, row.value])
  }
  return payload
}

export function applyEntries(
  db: Db,
  change: { id: number; at: number },
  payload: EntriesPayload,
): void {
  if (payload.queue) insertQueue(db, { ...payload.queue, changeSetId: change.id, at: change.at })
  if (payload.audit) {
    const { filter, ...audit } = payload.audit
    const id = insertAudit(db, {
      ...audit,
      filter: JSON.parse(filter) as AnnotationFilter,
      changeSetId: change.id,
      at: change.at,
    })
    if (payload.drawn) appendAuditItems(db, id, payload.drawn.annotations, change.id)
  } else if (payload.drawn) {
    const auditId = madeBy(db, 'audit', payload.drawn.audit)
    if (auditId === undefined) throw unnamed('audit', payload.drawn.audit)
    // Two members may top up one audit at once: an item is held once, where it came first.
    appendAuditItems(db, auditId, notYetDrawn(db, auditId, payload.drawn.annotations), change.id)
  }
  for (const [subject, key, value] of payload.entries) {
    const named = NAMED[subject]
    let local = key
    if (named) {
      const k = key as Record<Named, string>
      const id = madeBy(db, named, k[named])
      if (id === undefined) throw unnamed(named, k[named])
      local = { ...k, [named]: id }
    }
    const shared = entryKeysOf(subject)
    if (shared) local = shared.toLocal(db, key)
    const row: EntryRow = { subject, key: JSON.stringify(local), value }
    insertEntry(db, change.id, row)
    applyEntryHere(db, row, change)
  }
}

/**
 * Applies an entry to the tables the app reads; a collection's (CROWDAQ's question sets) through
 * the collection's own code that saves them (recordChange leaves those to it).
 */
export function applyEntryHere(db: Db, row: EntryRow, change: { id: number; at: number }): void {
  if (!applyCollectionEntry(db, row, change.id)) applyEntry(db, row, change.at)
}
