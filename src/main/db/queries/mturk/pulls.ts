import type { MTurkPullRun, PullSelection } from '../../../../shared/contract/mturk'
import type { Transition } from '../../../../shared/contract/ratings'
import type { Db } from '../../connection'
import { get, pluck, run, all } from '../../connection'
import { sql } from '../../sql'

/** A pull run's identity: the same mode, selection and endpoint continue an unfinished run. */
export interface PullKey {
  mode: 'all' | 'new'
  selection: PullSelection
  endpoint: string
}

export interface Checkpoint {
  nextToken: string | null
  done: boolean
}

type PullRow = Omit<MTurkPullRun, 'selection'> & { selection: string }

const pullColumns = sql`id, mode, selection, state, started_at AS startedAt,
  finished_at AS finishedAt, hits, assignments, added AS new, updated`

function toRun(row: PullRow): MTurkPullRun {
  return { ...row, selection: JSON.parse(row.selection) as PullSelection }
}

/** Selections are compared as canonical JSON: sorted type ids, no empty members. */
function selectionKey(selection: PullSelection): string {
  const types = [...new Set(selection.hitTypeIds ?? [])].sort()
  const title = selection.titleContains?.trim() ?? ''
  return JSON.stringify({
    ...(types.length ? { hitTypeIds: types } : {}),
    ...(title ? { titleContains: title } : {}),
    ...(selection.examId ? { examId: selection.examId } : {}),
  })
}

/** The latest run with this key, when it did not finish (cancelled, failed, or killed). */
export function unfinishedPull(db: Db, key: PullKey): MTurkPullRun | undefined {
  const row = get<PullRow>(
    db,
    sql`SELECT ${pullColumns} FROM mturk_pulls
        WHERE mode = ${key.mode} AND selection = ${selectionKey(key.selection)}
          AND endpoint = ${key.endpoint}
        ORDER BY id DESC LIMIT 1`,
  )
  return row && row.state !== 'done' ? toRun(row) : undefined
}

export function createPull(db: Db, key: PullKey, at: number, runner: string): number {
  return Number(
    run(
      db,
      sql`INSERT INTO mturk_pulls (mode, selection, endpoint, state, started_at, runner)
          VALUES (${key.mode}, ${selectionKey(key.selection)}, ${key.endpoint}, 'running', ${at},
            ${runner})`,
    ).lastInsertRowid,
  )
}

export function restartPull(db: Db, pullId: number, runner: string): void {
  run(
    db,
    sql`UPDATE mturk_pulls SET state = 'running', finished_at = NULL, error = NULL,
          runner = ${runner}
        WHERE id = ${pullId}`,
  )
}

/** The process running the pull (`<host> <pid>`), if it is marked running. */
export function pullRunner(db: Db, pullId: number): string | null {
  return (
    pluck<string | null>(
      db,
      sql`SELECT runner FROM mturk_pulls WHERE id = ${pullId} AND state = 'running'`,
    ) ?? null
  )
}

export function finishPull(
  db: Db,
  pullId: number,
  state: 'done' | 'cancelled' | 'failed',
  at: number,
  error: string | null = null,
): void {
  run(
    db,
    sql`UPDATE mturk_pulls SET state = ${state}, finished_at = ${at}, error = ${error},
          runner = NULL
        WHERE id = ${pullId}`,
  )
}

export function setPullHits(db: Db, pullId: number, hits: number): void {
  run(db, sql`UPDATE mturk_pulls SET hits = ${hits} WHERE id = ${pullId}`)
}

export function addPullCounts(
  db: Db,
  pullId: number,
  counts: { assignments: number; added: number; updated: number; changeSetId: number | null },
): void {
  run(
    db,
    sql`UPDATE mturk_pulls SET assignments = assignments + ${counts.assignments},
          added = added + ${counts.added}, updated = updated + ${counts.updated},
          change_set_id = coalesce(${counts.changeSetId}, change_set_id)
        WHERE id = ${pullId}`,
  )
}

export function lastPull(db: Db): MTurkPullRun | null {
  const row = get<PullRow>(db, sql`SELECT ${pullColumns} FROM mturk_pulls ORDER BY id DESC LIMIT 1`)
  return row ? toRun(row) : null
}

/** Adds HITs to a run (those already in it keep their checkpoint). */
export function addCheckpoints(db: Db, pullId: number, hitIds: readonly string[]): void {
  for (const hitId of hitIds) {
    run(
      db,
      sql`INSERT INTO mturk_checkpoints (pull_id, hit_id) VALUES (${pullId}, ${hitId})
          ON CONFLICT DO NOTHING`,
    )
  }
}

export function checkpoints(db: Db, pullId: number): Map<string, Checkpoint> {
  const rows = all<{ hitId: string; nextToken: string | null; done: number }>(
    db,
    sql`SELECT hit_id AS hitId, next_token AS nextToken, done FROM mturk_checkpoints
        WHERE pull_id = ${pullId}`,
  )
  return new Map(rows.map((r) => [r.hitId, { nextToken: r.nextToken, done: r.done === 1 }]))
}

export function saveCheckpoint(
  db: Db,
  pullId: number,
  hitId: string,
  checkpoint: Checkpoint,
): void {
  run(
    db,
    sql`UPDATE mturk_checkpoints SET next_token = ${checkpoint.nextToken}, done = ${checkpoint.done}
        WHERE pull_id = ${pullId} AND hit_id = ${hitId}`,
  )
}

/** The newest change set of the project (a pull keeps writing into its own only while it is). */
export function latestChangeSetId(db: Db): number | null {
  return pluck<number | null>(db, sql`SELECT max(id) FROM change_sets`) ?? null
}

export interface Effects {
  changed: number
  transitions: Transition[]
}

export function effectsOf(db: Db, changeSetId: number): Effects {
  const row = get<{ changed: number; transitions: string }>(
    db,
    sql`SELECT changed, transitions FROM rating_effects WHERE change_set_id = ${changeSetId}`,
  )
  return row
    ? { changed: row.changed, transitions: JSON.parse(row.transitions) as Transition[] }
    : { changed: 0, transitions: [] }
}

/** Adds two pages' effects on ratings: counts per (from, to) summed. */
export function addEffects(a: Effects, b: Effects): Effects {
  const byKey = new Map<string, Transition>()
  for (const t of [...a.transitions, ...b.transitions]) {
    const key = `${t.from}>${t.to}`
    const seen = byKey.get(key)
    byKey.set(key, seen ? { ...seen, count: seen.count + t.count } : { ...t })
  }
  return { changed: a.changed + b.changed, transitions: [...byKey.values()] }
}

/** WAL pages a pull may gather before SQLite checkpoints (the default is 1,000). */
const PULL_WAL_PAGES = 16_000

/**
 * Holds checkpoints back on a connection that writes a pull (its store thread's, until it closes);
 * returns the setting it replaced.
 */
export function deferCheckpoints(db: Db): number {
  const before = db.pragma('wal_autocheckpoint', { simple: true }) as number
  db.pragma(`wal_autocheckpoint = ${Math.max(before, PULL_WAL_PAGES)}`)
  return before
}

/**
 * Runs a pull with checkpoints held back: its hundreds of small commits would otherwise copy the
 * WAL back into the database (with an fsync) every few pages. One checkpoint follows at the end;
 * a kill in between only leaves a longer WAL, which SQLite replays.
 */
export async function withDeferredCheckpoints<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const before = deferCheckpoints(db)
  try {
    return await work()
  } finally {
    if (db.open) {
      db.pragma(`wal_autocheckpoint = ${before}`)
      db.pragma('wal_checkpoint(PASSIVE)')
    }
  }
}
