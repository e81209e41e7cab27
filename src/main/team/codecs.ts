import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import {
  type RatingRowsPayload,
  encodeRatingRows,
  insertRatingRows,
} from '../db/queries/ratings/payload'
import { insertCompensatingRows } from '../db/queries/ratings/rows'
import {
  type PendingChangeSet,
  type PolicyRunRow,
  type RatingEffects,
  changeSetOfUid,
  insertPolicyRun,
  policyRunOf,
  ratingEffectsOf,
  uidOf,
} from '../db/queries/team/state'
import { type EntriesPayload, applyEntries, encodeEntries } from './entryCodec'
import { collectionCodecs, encodeEarlier } from '../collections/teams'
import type { LogEntry } from '../db/server/log'
import type { GrownSubmission } from '../db/queries/team/imports'
import {
  type MTurkRowsPayload,
  encodeMTurkRows,
  insertMTurkRows,
} from '../db/queries/mturk/payload'
import type { GrownRow } from '../db/queries/team/grownRows'

/**
 * How each kind of change set travels in the log: `encode` reads what a local change set wrote
 * into a payload of plain JSON in terms every replica shares; `apply` writes that payload into a
 * change set just opened on another replica. A new kind of change set plugs in here with its own
 * codec. What every payload carries besides (the change set it reverts, what it did to effective
 * ratings when it was made) is in the envelope.
 */
export interface ChangeSetCodec<P> {
  encode(db: Db, changeSetId: number): P
  apply(db: Db, change: { id: number; at: number; reverts: number | null }, payload: P): void
}

/**
 * Rating rows as they are: worker and item ratings, and retractions; and the entries of a
 * collection's item ratings (HALIE's), which a rating change set records beside its rows.
 */
const ratingRows: ChangeSetCodec<RatingRowsPayload & Partial<EntriesPayload>> = {
  encode(db, id) {
    const { entries } = encodeEntries(db, id)
    return { ...encodeRatingRows(db, id), ...(entries.length > 0 ? { entries } : {}) }
  },
  apply(db, change, payload) {
    insertRatingRows(db, change.id, change.at, payload)
    if (payload.entries) applyEntries(db, change, { entries: payload.entries })
  },
}

/**
 * An MTurk pull or worker action: its rating rows, and what it recorded on MTurk's side (the
 * assignments and HITs it wrote, the worker actions it took), which the receiving replica records
 * as done and never sends again.
 */
const mturk: ChangeSetCodec<RatingRowsPayload & MTurkRowsPayload> = {
  encode: (db, id) => ({ ...encodeRatingRows(db, id), ...encodeMTurkRows(db, id) }),
  apply(db, change, payload) {
    insertRatingRows(db, change.id, change.at, payload)
    insertMTurkRows(db, change.id, payload)
  },
}

/** A policy's rating rows and what it was made from (its script, parameters and dry run). */
const policy: ChangeSetCodec<{ rows: RatingRowsPayload; run: PolicyRunRow | null }> = {
  encode: (db, id) => ({ rows: encodeRatingRows(db, id), run: policyRunOf(db, id) ?? null }),
  apply(db, change, payload) {
    insertRatingRows(db, change.id, change.at, payload.rows)
    if (payload.run) insertPolicyRun(db, change.id, payload.run)
  },
}

/**
 * A revert carries what it reverts and the entries it wrote: its rating rows are the compensating
 * rows the local revert writes (`insertCompensatingRows`), worked out again from the same reverted
 * rows; the values it put back (a mark, a verdict, a setting) are carried as it wrote them.
 */
const revert: ChangeSetCodec<Partial<EntriesPayload>> = {
  encode: (db, id) => ({ entries: encodeEntries(db, id).entries }),
  apply(db, change, payload) {
    if (change.reverts === null) throw new Error('a revert that names no change set')
    insertCompensatingRows(db, change.reverts, change)
    applyEntries(db, change, { entries: payload.entries ?? [] })
  },
}

/** Triage, audits, settings, CROWDAQ edits and HALIE ratings: the rows they made and their entries. */
const entries: ChangeSetCodec<EntriesPayload> = { encode: encodeEntries, apply: applyEntries }

const CODECS: Readonly<Record<string, ChangeSetCodec<unknown>>> = {
  import: ratingRows,
  manual: ratingRows,
  bulk: ratingRows,
  mturk,
  policy,
  revert,
  triage: entries,
  audit: entries,
  setting: entries,
  crowdaq: entries,
  // A collection's own kinds (ProtoQA's `protoqa`), from its team declaration.
  ...(collectionCodecs as Readonly<Record<string, ChangeSetCodec<unknown>>>),
}

/**
 * The payload format this Winnow reads; an entry of a later format is refused, not misread.
 * Format 2: a change set may have brought bulk data, which the server holds beside the log.
 * Format 3: it may have added annotations to submissions of earlier change sets (`grown`); an
 * envelope is written at 3 only then, so an older Winnow refuses it rather than miss those rows.
 * Format 4: an import may carry what it changed in a collection's rows of earlier change sets
 * (`earlier`: HALIE's sessions); written at 4 only then, for the same reason.
 * Format 5: an `mturk` change set carries its assignments, HITs and worker actions; written only
 * then, so an older Winnow refuses it rather than drop a bonus paid and offer to pay it again.
 * Format 6: it may have grown rows of collection tables that earlier change sets brought
 * (`grownRows`), written only then, for the same reason.
 */
export const PAYLOAD_FORMAT = 6
const PLAIN_FORMAT = 2
const GROWN_FORMAT = 3
const EARLIER_FORMAT = 4
const MTURK_FORMAT = 5
const GROWN_ROWS_FORMAT = 6

export interface Envelope {
  format: number
  /** Global id of the change set this one reverts. */
  reverts: string | null
  /** What it did to effective ratings where it was made (History shows it). */
  effects: RatingEffects | null
  body: unknown
  /** Its rows are in the server's bulk tables, under its global id (an import after publishing). */
  bulk?: true
  /** Submissions of earlier change sets it added annotations to (their rows travel with its own). */
  grown?: GrownSubmission[]
  /** What it changed in a collection's rows of earlier change sets, by collection (`encodeEarlier`). */
  earlier?: Record<string, unknown>
  /** Rows of collection tables that earlier change sets brought and it grew (with their children). */
  grownRows?: GrownRow[]
}

function codecFor(kind: string): ChangeSetCodec<unknown> {
  const codec = CODECS[kind]
  if (!codec) {
    throw new UserError({
      type: 'conflict',
      code: 'unknown-change-set-kind',
      message: `The team's log holds a change set of kind '${kind}', which this Winnow cannot apply. Update Winnow.`,
    })
  }
  return codec
}

/** A local change set as the log takes it: its global id, its header and its encoded body. */
export function logEntry(db: Db, change: PendingChangeSet, payload?: unknown): LogEntry {
  return {
    uid: change.uid,
    kind: change.kind,
    author: change.author,
    createdAt: change.createdAt,
    description: change.description,
    payload: payload ?? encodeChangeSet(db, change),
  }
}

export function encodeChangeSet(
  db: Db,
  change: { id: number; kind: string; reverts: number | null },
): Envelope {
  const reverts = change.reverts === null ? null : (uidOf(db, change.reverts) ?? null)
  const body = codecFor(change.kind).encode(db, change.id)
  const envelope: Envelope = {
    format: change.kind === 'mturk' && carriesMTurkRows(body) ? MTURK_FORMAT : PLAIN_FORMAT,
    reverts,
    effects: ratingEffectsOf(db, change.id),
    body,
  }
  const earlier = change.kind === 'import' ? encodeEarlier(db, change.id) : null
  return earlier === null
    ? envelope
    : { ...envelope, format: Math.max(envelope.format, EARLIER_FORMAT), earlier }
}

function carriesMTurkRows(body: unknown): boolean {
  const rows = body as MTurkRowsPayload
  return rows.hits !== undefined || rows.assignments !== undefined || rows.actions !== undefined
}

/** The local id of the change set an envelope reverts, or null. */
export function revertedChangeSet(db: Db, envelope: Envelope): number | null {
  if (envelope.reverts === null) return null
  const id = changeSetOfUid(db, envelope.reverts)
  if (id === undefined)
    throw new Error(`a revert of change set ${envelope.reverts}, which this replica lacks`)
  return id
}

/** An import's envelope with the submissions it grew, at the format that carries them. */
export function withGrown(envelope: Envelope, grown: GrownSubmission[]): Envelope {
  return grown.length === 0
    ? envelope
    : { ...envelope, format: Math.max(envelope.format, GROWN_FORMAT), grown }
}

/** An import's envelope with the collection rows it grew, at the format that carries them. */
export function withGrownRows(envelope: Envelope, grownRows: GrownRow[]): Envelope {
  return grownRows.length === 0
    ? envelope
    : { ...envelope, format: Math.max(envelope.format, GROWN_ROWS_FORMAT), grownRows }
}

/** The annotations an envelope's grown submissions gained, by id. */
export function grownAnnotations(envelope: Envelope): number[] {
  const ids: number[] = []
  for (const g of envelope.grown ?? []) {
    for (let d = 1; d <= 10; d++) if (g.dimensions & (1 << d)) ids.push(g.id * 16 + d)
  }
  return ids
}

export function checkEnvelope(payload: unknown): Envelope {
  const envelope = payload as Envelope | null
  if (!envelope || typeof envelope !== 'object' || typeof envelope.format !== 'number') {
    throw new Error('a change set in the log has no payload envelope')
  }
  if (envelope.format > PAYLOAD_FORMAT) {
    throw new UserError({
      type: 'conflict',
      code: 'server-too-new',
      message: `The team's log holds change sets written by a newer Winnow (payload format ${envelope.format}). Update Winnow.`,
    })
  }
  return envelope
}

export function applyChangeSetBody(
  db: Db,
  kind: string,
  change: { id: number; at: number; reverts: number | null },
  envelope: Envelope,
): void {
  codecFor(kind).apply(db, change, envelope.body)
}
