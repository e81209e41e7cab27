import type { Db } from '../../connection'
import { all, get, pluck, pluckAll, run } from '../../connection'
import { sql } from '../../sql'
import { createTeamTables, isTeamProject } from './state'

/**
 * A team's split of its triage queues, as this replica last heard it from the server: who reviews
 * each item (`team_triage_claims`, made with the team tables). Claims are made on the server only.
 */

export interface Claim {
  /** The global id of the change set that started the queue. */
  queueUid: string
  position: number
  member: string
}

/** Replaces what this replica knows of the claims by the server's (queues it lacks are left out). */
export function replaceClaims(db: Db, claims: readonly Claim[]): void {
  createTeamTables(db)
  run(db, sql`DELETE FROM team_triage_claims`)
  run(
    db,
    sql`INSERT INTO team_triage_claims (queue_id, position, member)
        SELECT q.id, j.value ->> 'position', j.value ->> 'member'
        FROM json_each(${JSON.stringify(claims)}) j
        JOIN change_sets c ON c.uid = j.value ->> 'queueUid'
        JOIN triage_queues q ON q.change_set_id = c.id`,
  )
}

function hasClaims(db: Db): boolean {
  return (
    isTeamProject(db) &&
    pluck<number>(db, sql`SELECT count(*) FROM sqlite_schema WHERE name = 'team_triage_claims'`) ===
      1
  )
}

/** Who claimed each item of a queue (position → member); null in a project of one. */
export function claimsOf(db: Db, queueId: number): Map<number, string> | null {
  if (!isTeamProject(db)) return null
  if (!hasClaims(db)) return new Map()
  const rows = all<{ position: number; member: string }>(
    db,
    sql`SELECT position, member FROM team_triage_claims WHERE queue_id = ${queueId}`,
  )
  return new Map(rows.map((r) => [r.position, r.member]))
}

/**
 * Whether this replica's member may review an item: in a queue that is split (it has claims),
 * only the items the member claimed. Returns who holds the item (null: no one) when not.
 */
export function claimRefusal(
  db: Db,
  queueId: number,
  position: number,
): { holder: string | null } | undefined {
  if (!hasClaims(db)) return undefined
  const row = get<{ split: number; holder: string | null; me: string }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM team_triage_claims WHERE queue_id = ${queueId}) AS split,
          (SELECT member FROM team_triage_claims WHERE queue_id = ${queueId}
            AND position = ${position}) AS holder,
          (SELECT member FROM team_state) AS me`,
  )
  if (!row || row.split === 0 || row.holder === row.me) return undefined
  return { holder: row.holder }
}

/** Items no one has claimed nor reviewed, in order. */
export function openPositions(db: Db, queueId: number): number[] {
  return pluckAll<number>(
    db,
    sql`SELECT i.position FROM triage_items i WHERE i.queue_id = ${queueId}
          AND i.reviewed_at IS NULL AND NOT EXISTS (SELECT 1 FROM team_triage_claims c
            WHERE c.queue_id = i.queue_id AND c.position = i.position)
        ORDER BY i.position`,
  )
}

/** The position of a queued annotation's item. */
export function positionOf(db: Db, queueId: number, annotationId: number): number | undefined {
  return pluck<number>(
    db,
    sql`SELECT position FROM triage_items WHERE queue_id = ${queueId}
          AND submission_id = ${Math.floor(annotationId / 16)}`,
  )
}
