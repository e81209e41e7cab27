import { createHash } from 'node:crypto'
import { UserError } from '../../../../shared/contract/errors'
import { type Db, pluck, run } from '../../connection'
import { sql } from '../../sql'

/**
 * Ids of rows a team replica adds after publishing (imports and MTurk pulls), so that every
 * replica names them alike without asking the server at the moment of writing (decisions.md,
 * "Ids of imports after publishing"): submissions and source files take ids from the replica's
 * own band, a range the server gives it once; a worker's or a story's id is made from its
 * external id, so two members meeting one new worker at once give it the same id.
 */
export const BAND_BITS = 36
/** Replica numbers run from 1 below this, so annotation ids (submission × 16) stay exact in JS. */
export const MAX_REPLICA = 1024
const WORKER_BASE = 2 ** 51
const STORY_BASE = 2 ** 48

export function createReplicaTable(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS team_replica (
      only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
      -- The number the server gave this replica: its band of ids is [number, number + 1) << 36.
      number INTEGER NOT NULL
    ) STRICT`)
}

/** The replica's number, or null outside a team project (or before the server gave one). */
export function replicaNumber(db: Db): number | null {
  const exists = pluck<number>(
    db,
    sql`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'team_replica'`,
  )
  if (exists !== 1) return null
  return pluck<number>(db, sql`SELECT number FROM team_replica`) ?? null
}

export function setReplicaNumber(db: Db, number: number): void {
  if (!Number.isInteger(number) || number < 1 || number >= MAX_REPLICA) {
    throw new UserError({
      type: 'conflict',
      code: 'too-many-replicas',
      message: `The team's server has given out ${number - 1} replica numbers; a team holds at most ${MAX_REPLICA - 1} replicas.`,
    })
  }
  createReplicaTable(db)
  run(db, sql`INSERT OR REPLACE INTO team_replica (only_row, number) VALUES (1, ${number})`)
}

export type BandTable =
  | 'submissions'
  | 'source_files'
  | 'halie_sessions'
  | 'halie_tables'
  | 'halie_rows'
  | 'halie_logs'
  | 'protoqa_questions'
  | 'protoqa_answers'
  | 'protoqa_responses'
  | 'protoqa_clusterings'
  | 'protoqa_prediction_sets'
  | 'crowdaq_exam_attempts'
  | 'crowdaq_task_assignments'

export interface Band {
  first: number
  last: number
}

export function bandOf(number: number): Band {
  const first = number * 2 ** BAND_BITS
  return { first, last: first + 2 ** BAND_BITS - 1 }
}

/**
 * The next free id of `table` (submissions, source_files, or a collection's table whose imports
 * travel) in this replica's band, or null outside a team project.
 */
export function nextBandId(db: Db, table: BandTable): number | null {
  const number = replicaNumber(db)
  if (number === null) return null
  const { first, last } = bandOf(number)
  const max = db
    .prepare(`SELECT max(id) FROM ${table} WHERE id BETWEEN ? AND ?`)
    .pluck()
    .get(first, last) as number | null
  return (max ?? first - 1) + 1
}

function hashedId(kind: 'worker' | 'story', externalId: string): number {
  const digest = createHash('sha256').update(`${kind}\u0000${externalId}`).digest()
  const base = kind === 'worker' ? WORKER_BASE : STORY_BASE
  // 48 bits of the hash: under the next power of two above the base.
  return base + digest.readUIntBE(0, 6) * (base / 2 ** 48)
}

/**
 * The id a new worker or story takes on a team replica; another row already holding it (two
 * external ids of one hash, unlikely) is refused rather than renumbered, so no replica differs.
 */
export function sharedRowId(db: Db, kind: 'worker' | 'story', externalId: string): number {
  const id = hashedId(kind, externalId)
  const table = kind === 'worker' ? 'workers' : 'stories'
  const holder = db.prepare(`SELECT external_id FROM ${table} WHERE id = ?`).pluck().get(id) as
    string | undefined
  if (holder !== undefined && holder !== externalId) {
    throw new UserError({
      type: 'conflict',
      code: 'shared-id-taken',
      message: `The ${kind}s ${holder} and ${externalId} would take one id (${id}) in a team project; nothing was imported.`,
      field: kind,
    })
  }
  return id
}
