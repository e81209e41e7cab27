import { UserError } from '../../shared/contract/errors'
import { append } from '../../shared/lists'
import type { Db } from '../db/connection'
import { addToSelection, fillSelection } from '../db/queries/ratings/apply'
import { bandOf, replicaNumber, setReplicaNumber } from '../db/queries/team/ids'
import {
  importRows,
  importedAnnotations,
  insertImportRows,
  otherFormats,
  outsideBand,
} from '../db/queries/team/imports'
import type { BulkValue } from '../db/server/bulk'
import {
  IMPORT_TABLES,
  fetchImportRows,
  logHolds,
  sendImportRows,
  takeReplicaNumber,
} from '../db/server/imports'
import { recordEffects } from '../db/queries/changes/history'
import {
  type PendingChangeSet,
  type TeamState,
  annotationsTouchedBy,
  broughtBulkData,
  changeSetOfUid,
  changeSetTime,
  insertPulledChangeSet,
  pendingAtOrBefore,
  pendingChangeSets,
  placeChangeSet,
  retimeChangeSet,
  type RetimeSpan,
  retimeSpan,
  retimesThatReorder,
  setTeamRole,
  setTeamSeq,
  teamState,
} from '../db/queries/team/state'
import { type LogEntry, type PulledEntry, appendToLog, readLog } from '../db/server/log'
import { memberRole } from '../db/server/members'
import { checkServerSchema } from '../db/server/schema'
import { applyLoneWorkerRating, refreshSelection } from '../ratings/effective'
import { applyChangeSetBody, checkEnvelope, encodeChangeSet, revertedChangeSet } from './codecs'
import { replaceClaims } from '../db/queries/team/claims'
import { allClaims } from '../db/server/claims'
import { applyEntryHere } from './entryCodec'
import { importHeldBack } from '../collections/teams'
import { hasAnyEntries, moveEntriesLast } from '../db/queries/team/entries'
import {
  type TeamServer,
  closeServer,
  inServerTransaction,
  openServer,
  serverError,
} from './server'
import { parseServerUrl } from '../db/server/connect'

/**
 * Push and pull. The server's log orders every change set: each gets a place (`seq`) and a time
 * that grows with it, and a replica records a placed change set at that time, so the rating rules
 * (the later recorded rating stands) agree on every replica. Pending change sets, not yet placed,
 * come after everything placed; when they are placed they take the log's time.
 */
export interface SyncResult {
  pushed: number
  pulled: number
  seq: number
}

/** Change sets pushed in one server transaction at most. */
const PUSH_BATCH = 200
/** Log entries applied in one local transaction at most. */
const PULL_PAGE = 500

export function requireTeam(db: Db): TeamState {
  const state = teamState(db)
  if (!state) {
    throw new UserError({
      type: 'conflict',
      code: 'not-a-team-project',
      message: `${db.name} is not a team project (winnow team init publishes it, winnow team join makes a replica).`,
      file: db.name,
    })
  }
  return state
}

/** Connects as the project's member (the password from PGPASSWORD or ~/.pgpass). */
export async function openTeamServer(state: TeamState): Promise<TeamServer> {
  const { password, ...address } = parseServerUrl(state.server)
  return await openServer(address, password)
}

export async function syncTeam(db: Db): Promise<SyncResult> {
  const state = requireTeam(db)
  const server = await openTeamServer(state)
  try {
    return await syncWith(db, server, state.member)
  } finally {
    await closeServer(server)
  }
}

/** One sync over an open connection: the member's role, then push, then pull. */
export async function syncWith(db: Db, server: TeamServer, member: string): Promise<SyncResult> {
  let role: Awaited<ReturnType<typeof memberRole>>
  try {
    await checkServerSchema(server.client, server.address.url, requireTeam(db).role)
    role = await memberRole(server.client, member)
  } catch (error) {
    const refused = serverError(server, error)
    // A removed member's role keeps its login but loses every grant of the team.
    if (refused instanceof UserError && refused.info.code === 'not-allowed') role = null
    else throw refused
  }
  if (role === null) {
    throw new UserError({
      type: 'conflict',
      code: 'not-a-member',
      message: `${member} is not a member of the team at ${server.address.url}; a lead adds members with winnow team member add.`,
    })
  }
  db.transaction(() => setTeamRole(db, role)).immediate()
  // A replica joined before bands of ids existed takes one now, before it imports anything.
  if (replicaNumber(db) === null) {
    const number = await takeReplicaNumber(server.client).catch((error: unknown) => {
      throw serverError(server, error)
    })
    db.transaction(() => setReplicaNumber(db, number)).immediate()
  }
  const pushed = role === 'viewer' ? 0 : await push(db, server)
  const { pulled, seq } = await pull(db, server)
  await refreshClaims(db, server)
  return { pushed, pulled, seq }
}

/**
 * Pushes pending change sets, oldest first, each batch in one server transaction. A change set's
 * global id is made with it (`change_sets.uid`), so a push cut off and retried sends the same ids
 * and the log, which skips ids it holds, doubles nothing.
 */
export async function push(db: Db, server: TeamServer): Promise<number> {
  let pushed = 0
  for (;;) {
    const pending = pendingChangeSets(db, PUSH_BATCH)
    if (pending.length === 0) return pushed
    // An import goes alone, its rows with it; what came before it goes first.
    const at = pending.findIndex((c) => broughtBulkData(db, c.id))
    const first = pending[0]
    if (at === 0 && first) {
      await pushImport(db, server, first)
      pushed++
      continue
    }
    const entries: (LogEntry & { id: number })[] = pending
      .slice(0, at < 0 ? undefined : at)
      .map((c) => ({
        id: c.id,
        uid: c.uid,
        kind: c.kind,
        author: c.author,
        createdAt: c.createdAt,
        description: c.description,
        payload: encodeChangeSet(db, c),
      }))
    const placed = await inServerTransaction(server, async () => {
      await checkServerSchema(server.client, server.address.url)
      return await appendToLog(server.client, entries)
    })
    if (placed.length !== entries.length)
      throw new Error('the log did not place every change set pushed')
    // The places are recorded (and the times taken) when the pull brings them back in order.
    const byUid = new Map(placed.map((p) => [p.uid, p]))
    db.transaction(() => {
      for (const e of entries) {
        const p = byUid.get(e.uid)
        if (p) placeChangeSet(db, e.id, p)
      }
    }).immediate()
    pushed += entries.length
  }
}

/**
 * Pushes an import or MTurk pull made after publishing: its rows by COPY and its change set, in
 * one server transaction. Rows of a change set the log holds already were sent with it, so a push
 * cut off after its commit and retried sends only the (skipped) change set again.
 */
async function pushImport(db: Db, server: TeamServer, change: PendingChangeSet): Promise<void> {
  const number = replicaNumber(db)
  if (number === null || outsideBand(db, change.id, bandOf(number))) {
    throw new UserError({
      type: 'conflict',
      code: 'import-not-shared',
      message: `Change set ${change.id} (${change.description}) imported data into this replica before the server gave it a band of ids (an older Winnow made it), so its rows would not name the same things on other replicas; it and what came after it wait unpushed. Import it again into a newly joined replica.`,
    })
  }
  const others = otherFormats(db, change.id)
  if (others.length > 0) {
    throw new UserError({
      type: 'conflict',
      code: 'collection-not-shared',
      message: `Change set ${change.id} (${change.description}) imported ${others.join(' and ')} data, which team mode does not share after publishing; it and what came after it wait unpushed.`,
    })
  }
  const held = importHeldBack(db, change.id)
  if (held !== null) {
    throw new UserError({
      type: 'conflict',
      code: 'collection-not-shared',
      message: `Change set ${change.id} (${change.description}) does not travel: ${held}; it and what came after it wait unpushed.`,
    })
  }
  // The server refuses another role's rows too (grants of its migration 3); this says why.
  if (requireTeam(db).role !== 'lead') {
    throw new UserError({
      type: 'conflict',
      code: 'import-not-allowed',
      message: `Change set ${change.id} (${change.description}) imported data into this replica; only a lead's imports are shared, so it and what came after it wait unpushed.`,
    })
  }
  const entry: LogEntry = {
    uid: change.uid,
    kind: change.kind,
    author: change.author,
    createdAt: change.createdAt,
    description: change.description,
    payload: { ...encodeChangeSet(db, change), bulk: true },
  }
  const placed = await inServerTransaction(server, async () => {
    await checkServerSchema(server.client, server.address.url)
    if (!(await logHolds(server.client, change.uid))) {
      for (const table of IMPORT_TABLES) {
        await sendImportRows(server.client, table, importRows(db, table, change.id)).catch(
          (error: unknown) => {
            throw heldByServer(error, change, table.name) ?? error
          },
        )
      }
    }
    return await appendToLog(server.client, [entry])
  })
  const p = placed[0]
  if (!p) throw new Error('the log did not place the change set pushed')
  db.transaction(() => placeChangeSet(db, change.id, p)).immediate()
}

/**
 * A row the server holds already under the key of one the import wrote (an exam or a task of a
 * CROWDAQ file imported again, under its own name): said, rather than PostgreSQL's words.
 */
function heldByServer(error: unknown, change: PendingChangeSet, table: string): UserError | null {
  if ((error as { code?: unknown }).code !== '23505') return null
  return new UserError({
    type: 'conflict',
    code: 'collection-not-shared',
    message: `Change set ${change.id} (${change.description}) writes rows of ${table} the team holds already (an exam, tutorial or task imported again under its name); an import that changes shared rows does not travel yet, so it and what came after it wait unpushed.`,
  })
}

/** Fetches the bulk data of others' change sets in a page of the log, by global id. */
async function fetchBulkData(
  db: Db,
  server: TeamServer,
  page: readonly PulledEntry[],
): Promise<Map<string, Map<string, BulkValue[][]>>> {
  const rows = new Map<string, Map<string, BulkValue[][]>>()
  for (const entry of page) {
    if (!checkEnvelope(entry.payload).bulk || changeSetOfUid(db, entry.uid) !== undefined) continue
    try {
      rows.set(entry.uid, await fetchImportRows(server.client, entry.uid))
    } catch (error) {
      throw serverError(server, error)
    }
  }
  return rows
}

/** Pulls what the log holds after this replica's place and applies it, a page per transaction. */
export async function pull(db: Db, server: TeamServer): Promise<{ pulled: number; seq: number }> {
  let pulled = 0
  for (;;) {
    const after = requireTeam(db).seq
    let page: PulledEntry[]
    try {
      page = await readLog(server.client, after, PULL_PAGE)
    } catch (error) {
      throw serverError(server, error)
    }
    if (page.length === 0) return { pulled, seq: after }
    pulled += applyPulled(db, page, await fetchBulkData(db, server, page))
  }
}

/**
 * Applies a page of the log in one transaction: another member's change set is written through
 * its codec at the log's time; one of this replica's own takes its place and the log's time.
 * Pending change sets move after the page, and the effective ratings of every annotation the
 * page touched are worked out again by the rules local writes use; entries (marks, verdicts,
 * settings) of own and pending change sets are written again after those the page brought, so
 * the latest entry of a key is the latest placed. Returns how many were others'.
 */
export function applyPulled(
  db: Db,
  page: readonly PulledEntry[],
  bulk: ReadonlyMap<string, ReadonlyMap<string, BulkValue[][]>> = new Map(),
): number {
  return db
    .transaction(() => {
      let others = 0
      let last = 0
      let brought = false
      const touched: number[] = []
      const imported: number[] = []
      // Own work retimed moves no effective rating unless the order of ratings changed.
      const retimed: RetimeSpan[] = []
      const retime = (id: number, at: number): void => {
        const span = retimeSpan(db, id, at)
        if (retimeChangeSet(db, id, at) && span) retimed.push(span)
      }
      for (const entry of page) {
        last = entry.recordedAt
        const own = changeSetOfUid(db, entry.uid)
        if (own !== undefined) {
          placeChangeSet(db, own, entry)
          retime(own, entry.recordedAt)
          reapplyEntries(db, own, entry.recordedAt)
          continue
        }
        const id = insertHeader(db, entry)
        const rows = bulk.get(entry.uid)
        if (rows) {
          insertImportRows(db, IMPORT_TABLES, rows, id)
          imported.push(id)
        }
        applyBody(db, id, entry)
        brought ||= hasAnyEntries(db, id)
        // A lone worker rating is written as the local one is; anything else is recomputed below.
        if (!applyLoneWorkerRating(db, id)) touched.push(id)
        others++
      }
      // Pending work comes after everything placed, in the order it was made.
      for (const pending of pendingAtOrBefore(db, last)) retime(pending.id, ++last)
      append(touched, retimesThatReorder(db, retimed))
      if (brought) {
        for (const pending of pendingChangeSets(db)) reapplyEntries(db, pending.id, null)
      }
      let selected = fillSelection(db, annotationsTouchedBy(touched))
      if (imported.length > 0) selected += addToSelection(db, importedAnnotations(imported))
      if (selected > 0) refreshSelection(db)
      setTeamSeq(db, page[page.length - 1]?.seq ?? 0)
      return others
    })
    .immediate()
}

/** Writes a change set's entries again, last, at its time (`at`, or the one it has). */
function reapplyEntries(db: Db, id: number, at: number | null): void {
  const rows = moveEntriesLast(db, id)
  if (rows.length === 0) return
  const change = { id, at: at ?? changeSetTime(db, id) }
  for (const row of rows) applyEntryHere(db, row, change)
}

/** Opens the local change set of a log entry, placed, at the log's time. */
export function insertHeader(db: Db, entry: PulledEntry): number {
  const envelope = checkEnvelope(entry.payload)
  const id = insertPulledChangeSet(db, {
    uid: entry.uid,
    kind: entry.kind,
    author: entry.author,
    at: entry.recordedAt,
    description: entry.description,
    reverts: revertedChangeSet(db, envelope),
  })
  placeChangeSet(db, id, entry)
  return id
}

/** Writes what a log entry did into its local change set (no effective ratings yet). */
export function applyBody(db: Db, id: number, entry: PulledEntry): void {
  const envelope = checkEnvelope(entry.payload)
  applyChangeSetBody(
    db,
    entry.kind,
    { id, at: entry.recordedAt, reverts: revertedChangeSet(db, envelope) },
    envelope,
  )
  if (envelope.effects)
    recordEffects(db, id, envelope.effects.changed, envelope.effects.transitions)
}

/** Brings this replica's copy of the claims up to the server's. */
export async function refreshClaims(db: Db, server: TeamServer): Promise<void> {
  let claims: Awaited<ReturnType<typeof allClaims>>
  try {
    claims = await allClaims(server.client)
  } catch (error) {
    throw serverError(server, error)
  }
  db.transaction(() => replaceClaims(db, claims)).immediate()
}
