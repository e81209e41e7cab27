import type { Transition } from '../../../../shared/contract/ratings'
import type { Db } from '../../connection'
import { all, get, pluck, pluckAll, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { COLLECTION_TABLES } from '../../../collections/teams'

/**
 * A team project's local bookkeeping: which server and member it is, the last place in the log it
 * has, and for each change set its place. A change set's global id is its `change_sets.uid` (32
 * hex digits here, the same 128 bits as the log's UUID). A change set with no place is pending: it
 * waits in the project file to be pushed, so a kill loses none.
 *
 * The tables are made when a project becomes a team project (`team init`, `team join`); a project
 * without them is a local project.
 */
export function createTeamTables(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS team_state (
      only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
      -- The server's URL without its password.
      server TEXT NOT NULL,
      member TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('lead', 'reviewer', 'viewer')),
      -- The last place in the log this replica has applied.
      seq INTEGER NOT NULL
    ) STRICT;
    -- A change set's global id is its own change_sets.uid; this holds its place once it has one.
    CREATE TABLE IF NOT EXISTS team_change_sets (
      change_set_id INTEGER PRIMARY KEY REFERENCES change_sets(id),
      seq INTEGER NOT NULL UNIQUE,
      member TEXT NOT NULL
    ) STRICT;
    -- Who reviews each item of a triage queue, as last heard from the server (teamClaims.ts).
    CREATE TABLE IF NOT EXISTS team_triage_claims (
      queue_id INTEGER NOT NULL REFERENCES triage_queues(id),
      position INTEGER NOT NULL,
      member TEXT NOT NULL,
      PRIMARY KEY (queue_id, position)
    ) STRICT, WITHOUT ROWID;
  `)
}

export interface TeamState {
  server: string
  member: string
  role: 'lead' | 'reviewer' | 'viewer'
  seq: number
}

export function isTeamProject(db: Db): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'team_state'`,
    ) === 1 && pluck<number>(db, sql`SELECT count(*) FROM team_state`) === 1
  )
}

export function teamState(db: Db): TeamState | undefined {
  if (!isTeamProject(db)) return undefined
  return get<TeamState>(db, sql`SELECT server, member, role, seq FROM team_state`)
}

export function writeTeamState(db: Db, state: TeamState): void {
  run(
    db,
    sql`INSERT INTO team_state (only_row, server, member, role, seq)
        VALUES (1, ${state.server}, ${state.member}, ${state.role}, ${state.seq})
        ON CONFLICT (only_row) DO UPDATE SET server = excluded.server, member = excluded.member,
          role = excluded.role, seq = excluded.seq`,
  )
}

export function setTeamSeq(db: Db, seq: number): void {
  run(db, sql`UPDATE team_state SET seq = max(seq, ${seq})`)
}

export function setTeamRole(db: Db, role: TeamState['role']): void {
  run(db, sql`UPDATE team_state SET role = ${role}`)
}

export interface PendingChangeSet {
  id: number
  kind: string
  author: string
  createdAt: number
  description: string
  reverts: number | null
  /** Its global id (`change_sets.uid`), made with it: a retried push sends the same id. */
  uid: string
}

/**
 * A change set `c` that travels: not withdrawn (refused by the server and taken back), nor a
 * revert (at any depth) of one.
 */
const travels = sql`c.id NOT IN (SELECT change_set_id FROM team_withdrawn)
  AND NOT (c.kind = 'revert' AND EXISTS (
    WITH RECURSIVE up(id, kind, reverts) AS (
      SELECT r.id, r.kind, r.reverts FROM change_sets r WHERE r.id = c.reverts
      UNION ALL SELECT p.id, p.kind, p.reverts FROM change_sets p JOIN up ON p.id = up.reverts
        WHERE up.kind = 'revert')
    SELECT 1 FROM up WHERE up.id IN (SELECT change_set_id FROM team_withdrawn)))`

/** Change sets not yet placed in the log, oldest first (from after local id `after`). */
export function pendingChangeSets(
  db: Db,
  limit = Number.MAX_SAFE_INTEGER,
  after = 0,
): PendingChangeSet[] {
  return all<PendingChangeSet>(
    db,
    sql`SELECT c.id, c.kind, c.author, c.created_at AS createdAt, c.description, c.reverts, c.uid
        FROM change_sets c LEFT JOIN team_change_sets t ON t.change_set_id = c.id
        WHERE t.seq IS NULL AND c.id > ${after} AND ${travels} ORDER BY c.id LIMIT ${limit}`,
  )
}

export function pendingCount(db: Db): number {
  return (
    pluck<number>(
      db,
      sql`SELECT count(*) FROM change_sets c LEFT JOIN team_change_sets t ON t.change_set_id = c.id
          WHERE t.seq IS NULL AND ${travels}`,
    ) ?? 0
  )
}

/** Whether change set `id` waits to be pushed (not placed, and one that travels). */
export function isPending(db: Db, id: number): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT count(*) FROM change_sets c LEFT JOIN team_change_sets t ON t.change_set_id = c.id
          WHERE c.id = ${id} AND t.seq IS NULL AND ${travels}`,
    ) === 1
  )
}

/** Keeps a refused change set (and its reverts) on this replica, or lets it travel again. */
export function setWithdrawn(db: Db, id: number, reason: string | null): void {
  if (reason === null) run(db, sql`DELETE FROM team_withdrawn WHERE change_set_id = ${id}`)
  else run(db, sql`INSERT INTO team_withdrawn (change_set_id, reason) VALUES (${id}, ${reason})`)
}

export function uidOf(db: Db, changeSetId: number): string | undefined {
  return pluck<string>(db, sql`SELECT uid FROM change_sets WHERE id = ${changeSetId}`)
}

export function changeSetOfUid(db: Db, uid: string): number | undefined {
  return pluck<number>(db, sql`SELECT id FROM change_sets WHERE uid = ${uid}`)
}

export function changeSetTime(db: Db, changeSetId: number): number {
  return pluck<number>(db, sql`SELECT created_at FROM change_sets WHERE id = ${changeSetId}`) ?? 0
}

/** Records the place the server gave a change set. */
export function placeChangeSet(
  db: Db,
  changeSetId: number,
  place: { seq: number; member: string },
): void {
  run(
    db,
    sql`INSERT INTO team_change_sets (change_set_id, seq, member)
        VALUES (${changeSetId}, ${place.seq}, ${place.member})
        ON CONFLICT (change_set_id) DO UPDATE SET seq = excluded.seq, member = excluded.member`,
  )
}

/**
 * Sets the time of a change set and of every row it wrote: a placed change set takes the time
 * the log gave it, so every replica orders its rows the same way.
 */
export function retimeChangeSet(db: Db, changeSetId: number, at: number): boolean {
  const moved = run(
    db,
    sql`UPDATE change_sets SET created_at = ${at} WHERE id = ${changeSetId} AND created_at != ${at}`,
  ).changes
  if (moved === 0) return false
  for (const table of ['worker_ratings', 'item_ratings', 'rating_retractions'] as const) {
    run(
      db,
      sql`UPDATE ${sql.raw(table)} SET recorded_at = ${at} WHERE change_set_id = ${changeSetId}
            AND recorded_at != ${at}`,
    )
  }
  return true
}

/** The one worker rating of a change set that rates nothing else (no item rating, no retraction). */
export function loneWorkerRating(
  db: Db,
  changeSetId: number,
): { id: number; workerId: number } | undefined {
  return get(
    db,
    sql`SELECT min(w.id) AS id, min(w.worker_id) AS workerId FROM worker_ratings w
        WHERE w.change_set_id = ${changeSetId}
          AND NOT EXISTS (SELECT 1 FROM item_ratings WHERE change_set_id = ${changeSetId})
          AND NOT EXISTS (SELECT 1 FROM rating_retractions WHERE change_set_id = ${changeSetId})
        HAVING count(*) = 1`,
  )
}

/** The times a change set's ratings and retractions move between when it is retimed. */
export interface RetimeSpan {
  id: number
  from: number
  to: number
}

/** Before retiming `changeSetId` to `at`: the span its rating rows move over, or null without any. */
export function retimeSpan(db: Db, changeSetId: number, at: number): RetimeSpan | null {
  const span = get<{ lo: number | null; hi: number | null }>(
    db,
    sql`SELECT min(t) AS lo, max(t) AS hi FROM (
          SELECT recorded_at AS t FROM worker_ratings WHERE change_set_id = ${changeSetId}
          UNION ALL SELECT recorded_at FROM item_ratings WHERE change_set_id = ${changeSetId}
          UNION ALL SELECT recorded_at FROM rating_retractions WHERE change_set_id = ${changeSetId})`,
  )
  if (span?.lo == null || span.hi == null) return null
  return { id: changeSetId, from: Math.min(span.lo, at), to: Math.max(span.hi, at) }
}

/**
 * The change sets among `spans` whose retime may have changed an effective rating: a rating or
 * retraction of another change set lies within its span, or another span overlaps it. Otherwise
 * the order of every rating row is as before, and so is every effective rating.
 */
export function retimesThatReorder(db: Db, spans: readonly RetimeSpan[]): number[] {
  return spans
    .filter((s) => {
      if (spans.some((o) => o !== s && o.from <= s.to && s.from <= o.to)) return true
      const within = (table: string) =>
        sql`SELECT 1 FROM ${sql.raw(table)} WHERE recorded_at BETWEEN ${s.from} AND ${s.to}
              AND change_set_id != ${s.id}`
      return (
        pluck<number>(
          db,
          sql`SELECT EXISTS (${within('worker_ratings')}) OR EXISTS (${within('item_ratings')})
                OR EXISTS (${within('rating_retractions')})`,
        ) === 1
      )
    })
    .map((s) => s.id)
}

/** The latest time of a placed change set, or 0. */
export function lastPlacedTime(db: Db): number {
  return (
    pluck<number>(
      db,
      sql`SELECT max(c.created_at) FROM change_sets c JOIN team_change_sets t ON t.change_set_id = c.id
          WHERE t.seq IS NOT NULL`,
    ) ?? 0
  )
}

/** Pending change sets recorded at or before `at`, oldest first: they must come after it. */
export function pendingAtOrBefore(db: Db, at: number): { id: number; createdAt: number }[] {
  return all(
    db,
    sql`SELECT c.id, c.created_at AS createdAt FROM change_sets c
        LEFT JOIN team_change_sets t ON t.change_set_id = c.id
        WHERE t.seq IS NULL AND c.created_at <= ${at} ORDER BY c.id`,
  )
}

/** The members who pushed the given change sets (placed ones), by name. */
export function membersOf(db: Db, changeSetIds: readonly number[]): string[] {
  return pluckAll<string>(
    db,
    sql`SELECT DISTINCT member FROM team_change_sets
        WHERE change_set_id IN (SELECT value FROM json_each(${JSON.stringify(changeSetIds)}))
        ORDER BY member`,
  )
}

/** Members whose change sets this replica holds, by name. */
export function placedMembers(db: Db): string[] {
  return pluckAll<string>(
    db,
    sql`SELECT DISTINCT member FROM team_change_sets WHERE member IS NOT NULL ORDER BY member`,
  )
}

export interface RatingEffects {
  changed: number
  transitions: Transition[]
}

export function ratingEffectsOf(db: Db, changeSetId: number): RatingEffects | null {
  const row = get<{ changed: number; transitions: string }>(
    db,
    sql`SELECT changed, transitions FROM rating_effects WHERE change_set_id = ${changeSetId}`,
  )
  return row
    ? { changed: row.changed, transitions: JSON.parse(row.transitions) as Transition[] }
    : null
}

/**
 * Annotations whose effective rating the given change sets may have moved: those of the workers
 * whose timelines they touched, from the earliest day a touched rating is in force (a worker
 * rating moves nothing submitted before it), and those whose item ratings they wrote or switched.
 */
export function annotationsTouchedBy(changeSetIds: readonly number[]): SqlFragment {
  const ids = sql`(SELECT value FROM json_each(${JSON.stringify(changeSetIds)}))`
  return sql`SELECT a.id FROM (
      SELECT worker_id, min(effective_from) AS since FROM (
        SELECT worker_id, effective_from FROM worker_ratings WHERE change_set_id IN ${ids}
        UNION ALL SELECT w.worker_id, w.effective_from
          FROM rating_retractions r JOIN worker_ratings w ON w.id = r.rating_id
          WHERE r.target = 'worker' AND r.change_set_id IN ${ids})
      GROUP BY worker_id) t
    JOIN annotations a ON a.worker_id = t.worker_id AND a.submitted_at >= t.since
    UNION SELECT annotation_id FROM item_ratings WHERE change_set_id IN ${ids}
    UNION SELECT i.annotation_id FROM rating_retractions r JOIN item_ratings i ON i.id = r.rating_id
      WHERE r.target = 'item' AND r.change_set_id IN ${ids}`
}

export interface PolicyRunRow {
  name: string
  fileName: string
  script: string
  sha256: string
  params: string
  report: string
}

export function policyRunOf(db: Db, changeSetId: number): PolicyRunRow | undefined {
  return get<PolicyRunRow>(
    db,
    sql`SELECT name, file_name AS fileName, script, sha256, params, report FROM policy_runs
        WHERE change_set_id = ${changeSetId}`,
  )
}

export function insertPolicyRun(db: Db, changeSetId: number, r: PolicyRunRow): void {
  run(
    db,
    sql`INSERT INTO policy_runs (change_set_id, name, file_name, script, sha256, params, report)
        VALUES (${changeSetId}, ${r.name}, ${r.fileName}, ${r.script}, ${r.sha256}, ${r.params}, ${r.report})`,
  )
}

/** A change set written as another replica wrote it, at the time the log gave it. */
export function insertPulledChangeSet(
  db: Db,
  c: {
    uid: string
    kind: string
    author: string
    at: number
    description: string
    reverts: number | null
  },
): number {
  return Number(
    run(
      db,
      sql`INSERT INTO change_sets (uid, kind, author, created_at, description, reverts)
          VALUES (${c.uid}, ${c.kind}, ${c.author}, ${c.at}, ${c.description}, ${c.reverts})`,
    ).lastInsertRowid,
  )
}

/** Whether a change set brought bulk rows (an import's submissions, files or added annotations). */
export function broughtBulkData(db: Db, changeSetId: number): boolean {
  const id = Math.trunc(changeSetId)
  // A collection's import may write no source file (CROWDAQ's): its own rows, or the rows it
  // grew, say it.
  const collections = COLLECTION_TABLES.filter((t) => t.columns.some((c) => c.type === 'uid')).map(
    (t) => `OR EXISTS (SELECT 1 FROM ${t.name} WHERE change_set_id = ${id})`,
  )
  return (
    db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM submissions WHERE change_set_id = ${id})
          OR EXISTS (SELECT 1 FROM source_files WHERE change_set_id = ${id})
          OR EXISTS (SELECT 1 FROM added_annotations WHERE change_set_id = ${id})
          OR EXISTS (SELECT 1 FROM grown_rows WHERE change_set_id = ${id})
          OR ((SELECT kind FROM change_sets WHERE id = ${id}) = 'import'
            AND (0 ${collections.join(' ')}))`,
      )
      .pluck()
      .get() === 1
  )
}
