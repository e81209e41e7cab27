import { UserError } from '../../shared/contract/errors'
import { append } from '../../shared/lists'
import type { Db } from '../db/connection'
import { addToSelection, fillSelection } from '../db/queries/ratings/apply'
import { bandOf, replicaNumber, setReplicaNumber } from '../db/queries/team/ids'
import {
  grownSubmissions,
  importRows,
  importedAnnotations,
  insertImportRows,
  otherFormats,
  outsideBand,
  setGrownFlags,
} from '../db/queries/team/imports'
import type { BulkValue } from '../db/server/bulk'
import {
  IMPORT_TABLES,
  fetchGrownRows,
  fetchImportRows,
  logHolds,
  sendGrownRows,
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
import {
  type LogEntry,
  type Placed,
  type PulledEntry,
  appendToLog,
  readLog,
} from '../db/server/log'
import { memberRole } from '../db/server/members'
import { checkServerSchema } from '../db/server/schema'
import { applyLoneWorkerRating, refreshSelection } from '../ratings/effective'
import {
  applyChangeSetBody,
  checkEnvelope,
  encodeChangeSet,
  grownAnnotations,
  logEntry,
  revertedChangeSet,
  withGrown,
  withGrownRows,
} from './codecs'
import {
  grownRowValues,
  grownRowsOf,
  recountGrownRows,
  writeGrownRows,
} from '../db/queries/team/grownRows'
import { replaceClaims } from '../db/queries/team/claims'
import { allClaims } from '../db/server/claims'
import { applyEntryHere } from './entryCodec'
import { applyEarlier, reapplyEarlier } from '../collections/teams'
import { hasAnyEntries, moveEntriesLast } from '../db/queries/team/entries'
import {
  type TeamServer,
  closeServer,
  inServerTransaction,
  openServer,
  serverError,
} from './server'
import { parseServerUrl } from '../db/server/connect'
import { teamStep } from './steps'
import { giveWayTo } from './takeBack'

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

/**
 * A change set the push cannot place: the server refused it (the member's role may not make it)
 * or this Winnow does not send it; it and what came after it wait unpushed until it is taken
 * back (`team.withdraw`).
 */
export class PushRefused extends UserError {
  constructor(
    readonly changeSet: { id: number; description: string },
    refusal: UserError,
  ) {
    super(refusal.info)
  }
}

/** Kinds of change set that may bring bulk rows. */
const BULK_KINDS = new Set(['import', 'mturk'])

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

/** How a sync over an open connection goes beyond push and pull. */
export interface SyncOptions {
  /**
   * The server's schema and the member's role were checked on this connection a moment ago (the
   * app's live link checks them every few seconds, not on every push it hears of): the role this
   * replica holds stands. A push still checks the schema in its own transaction.
   */
  checked?: boolean
  /** Told as soon as what others pushed is applied, before the claims are brought up to date. */
  pulled?: (pulled: number) => void
}

/** One sync over an open connection: the member's role, then push, then pull. */
export async function syncWith(
  db: Db,
  server: TeamServer,
  member: string,
  options: SyncOptions = {},
): Promise<SyncResult> {
  teamStep(db.name, 'exchange')
  const role = options.checked ? requireTeam(db).role : await checkMember(db, server, member)
  teamStep(db.name, 'push-start')
  const pushed = role === 'viewer' ? 0 : await push(db, server)
  if (pushed > 0) teamStep(db.name, 'pushed')
  teamStep(db.name, 'pull-start')
  const { pulled, seq } = await pull(db, server)
  options.pulled?.(pulled)
  await refreshClaims(db, server)
  return { pushed, pulled, seq }
}

/** The server's schema is one this Winnow knows: the member's role there, null when none. */
export async function askMember(
  server: TeamServer,
  member: string,
  role: TeamState['role'],
): Promise<TeamState['role'] | null> {
  try {
    await checkServerSchema(server.client, server.address.url, role)
    return await memberRole(server.client, member)
  } catch (error) {
    const refused = serverError(server, error)
    // A removed member's role keeps its login but loses every grant of the team.
    if (refused instanceof UserError && refused.info.code === 'not-allowed') return null
    throw refused
  }
}

/** The server's schema is one this Winnow knows and the member still a member: its role. */
async function checkMember(db: Db, server: TeamServer, member: string): Promise<TeamState['role']> {
  const role = await askMember(server, member, requireTeam(db).role)
  if (role === null) {
    throw new UserError({
      type: 'conflict',
      code: 'not-a-member',
      message: `${member} is not a member of the team at ${server.address.url}; a lead adds members with winnow team member add.`,
    })
  }
  if (role !== requireTeam(db).role) db.transaction(() => setTeamRole(db, role)).immediate()
  // A replica joined before bands of ids existed takes one now, before it imports anything.
  if (replicaNumber(db) === null) {
    const number = await takeReplicaNumber(server.client).catch((error: unknown) => {
      throw serverError(server, error)
    })
    db.transaction(() => setReplicaNumber(db, number)).immediate()
  }
  return role
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
    // An import goes alone, its rows with it; what came before it goes first. Only imports and
    // MTurk pulls bring rows (asking a rating would scan the submissions for nothing).
    const at = pending.findIndex((c) => BULK_KINDS.has(c.kind) && broughtBulkData(db, c.id))
    const first = pending[0]
    if (at === 0 && first) {
      await pushImport(db, server, first)
      pushed++
      continue
    }
    const entries: (LogEntry & { id: number })[] = pending
      .slice(0, at < 0 ? undefined : at)
      .map((c) => ({ id: c.id, ...logEntry(db, c) }))
    pushed += await pushEntries(db, server, entries)
  }
}

/**
 * Appends change sets to the log in one server transaction and records their places. When the
 * server refuses the batch, they go one at a time, so those before the refused one are placed
 * and the refusal names it.
 */
async function pushEntries(
  db: Db,
  server: TeamServer,
  entries: readonly (LogEntry & { id: number })[],
): Promise<number> {
  let placed: Placed[]
  try {
    placed = await inServerTransaction(server, async () => {
      await checkServerSchema(server.client, server.address.url)
      return await appendToLog(server.client, entries)
    })
  } catch (error) {
    if (!(error instanceof UserError) || error.info.code !== 'not-allowed') throw error
    const [only] = entries
    if (entries.length === 1 && only) {
      const message = `The team's server refused change set ${only.id} (${only.description}): ${error.message.replace(/^The team's server refused: /, '')} It and what came after it wait unpushed; revert it here to let the rest go.`
      throw new PushRefused(only, new UserError({ ...error.info, message }))
    }
    let pushed = 0
    for (const entry of entries) pushed += await pushEntries(db, server, [entry])
    return pushed
  }
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
  return entries.length
}

/**
 * Pushes an import or MTurk pull made after publishing: its rows by COPY and its change set, in
 * one server transaction. Rows of a change set the log holds already were sent with it, so a push
 * cut off after its commit and retried sends only the (skipped) change set again.
 */
async function pushImport(db: Db, server: TeamServer, change: PendingChangeSet): Promise<void> {
  // An import waiting here is not offered to revert: it only added what it made (a revert
  // refuses it), so it waits with its message.
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
  // The server refuses another role's rows too (grants of its migration 3); this says why.
  if (requireTeam(db).role !== 'lead') {
    throw new UserError({
      type: 'conflict',
      code: 'import-not-allowed',
      message: `Change set ${change.id} (${change.description}) imported data into this replica; only a lead's imports are shared, so it and what came after it wait unpushed.`,
    })
  }
  const grownRows = grownRowsOf(db, change.id)
  const entry = logEntry(
    db,
    change,
    withGrownRows(
      withGrown({ ...encodeChangeSet(db, change), bulk: true }, grownSubmissions(db, change.id)),
      grownRows,
    ),
  )
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
      // Rows the team holds that this import grew: updated, not inserted.
      await sendGrownRows(server.client, grownRows, grownRowValues(db, change.id)).catch(
        (error: unknown) => {
          const table = (error as { table?: unknown }).table
          throw heldByServer(error, change, typeof table === 'string' ? table : 'a row') ?? error
        },
      )
    }
    return await appendToLog(server.client, [entry])
  })
  const p = placed[0]
  if (!p) throw new Error('the log did not place the change set pushed')
  db.transaction(() => placeChangeSet(db, change.id, p)).immediate()
}

/**
 * A row the server holds already under a key of one the import wrote (another lead imported the
 * same question, exam or attempt first): the change set is refused, named with the row, and can
 * be reverted here (`team.withdraw`), as a change set the server refused for its role.
 */
function heldByServer(error: unknown, change: PendingChangeSet, table: string): UserError | null {
  const { code, detail } = error as { code?: unknown; detail?: unknown }
  if (code !== '23505') return null
  const key = typeof detail === 'string' ? detail.replace(/^Key /, '').replace(/\.$/, '') : 'a key'
  return new PushRefused(
    change,
    new UserError({
      type: 'conflict',
      code: 'held-by-team',
      message: `The team's server refused change set ${change.id} (${change.description}): the team holds ${table} ${key} already (another lead imported it first). It and what came after it wait unpushed; revert it here to let the rest go, and the team's row comes with the next pull.`,
    }),
  )
}

type RowsByUid = Map<string, Map<string, BulkValue[][]>>

/**
 * Fetches the bulk data of others' change sets in a page of the log, by global id: the rows each
 * brought, and apart the rows of earlier change sets each grew (as the server holds them now).
 */
async function fetchBulkData(
  db: Db,
  server: TeamServer,
  page: readonly PulledEntry[],
): Promise<{ rows: RowsByUid; grown: RowsByUid }> {
  const rows: RowsByUid = new Map()
  const grown: RowsByUid = new Map()
  for (const entry of page) {
    const envelope = checkEnvelope(entry.payload)
    if (!envelope.bulk || changeSetOfUid(db, entry.uid) !== undefined) continue
    try {
      rows.set(
        entry.uid,
        await fetchImportRows(server.client, entry.uid, grownAnnotations(envelope)),
      )
      if (envelope.grownRows)
        grown.set(entry.uid, await fetchGrownRows(server.client, envelope.grownRows))
    } catch (error) {
      throw serverError(server, error)
    }
  }
  return { rows, grown }
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
    teamStep(db.name, 'read')
    const { rows, grown } = await fetchBulkData(db, server, page)
    pulled += applyPulled(db, page, rows, grown)
    teamStep(db.name, 'applied')
    // A page not full was the log's end when it was read; a later push is heard of again.
    if (page.length < PULL_PAGE) return { pulled, seq: requireTeam(db).seq }
  }
}

/**
 * Applies a page of the log in one transaction: another member's change set is written through
 * its codec at the log's time; one of this replica's own takes its place and the log's time.
 * Pending change sets move after the page, and the effective ratings of every annotation the
 * page touched are worked out again by the rules local writes use; entries (marks, verdicts,
 * settings) of own and pending change sets are written again after those the page brought, so
 * the latest entry of a key is the latest placed, and so are the values own and pending imports
 * set in earlier rows (HALIE's sessions). Returns how many were others'.
 */
export function applyPulled(
  db: Db,
  page: readonly PulledEntry[],
  bulk: ReadonlyMap<string, ReadonlyMap<string, BulkValue[][]>> = new Map(),
  grown: ReadonlyMap<string, ReadonlyMap<string, BulkValue[][]>> = new Map(),
): number {
  return db
    .transaction(() => {
      let others = 0
      let last = 0
      let brought = false
      let broughtEarlier = false
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
          reapplyEarlier(db, own)
          continue
        }
        const id = insertHeader(db, entry)
        const envelope = checkEnvelope(entry.payload)
        const rows = bulk.get(entry.uid)
        if (rows) {
          const grownRows = envelope.grownRows
          const grownValues = grown.get(entry.uid) ?? new Map<string, BulkValue[][]>()
          giveWayTo(db, rows, { rows: grownRows ?? [], values: grownValues })
          if (grownRows) writeGrownRows(db, grownRows, grownValues, id)
          insertImportRows(db, IMPORT_TABLES, rows, id)
          if (grownRows) recountGrownRows(db, grownRows)
          imported.push(id)
        }
        applyBody(db, id, entry)
        brought ||= hasAnyEntries(db, id)
        broughtEarlier ||= envelope.earlier !== undefined
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
      if (broughtEarlier)
        for (const pending of pendingChangeSets(db)) reapplyEarlier(db, pending.id)
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
  // Their annotations arrived with the bulk rows (or the join's); their flags count them now.
  if (envelope.grown) setGrownFlags(db, envelope.grown)
  // What it changed in rows earlier change sets brought (the server's rows keep their first state).
  if (envelope.earlier) applyEarlier(db, id, envelope.earlier)
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
