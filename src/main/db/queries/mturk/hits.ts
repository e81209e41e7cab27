import type { AssignmentStatus, MTurkHit, MTurkHitRow } from '../../../../shared/contract/mturk'
import type { Db } from '../../connection'
import { all, run } from '../../connection'
import { sql } from '../../sql'

/** A HIT as listed by the service, flattened for storage. */
export interface ListedHit extends MTurkHit {
  /** Counts and status that change whenever its work does (see `hitSignature`). */
  signature: string
  raw: string
}

/** What "pull new" needs to decide whether a HIT changed since its last complete pull. */
export interface StoredHitState {
  hitId: string
  pulledSignature: string | null
  pulledAt: number | null
  /** Some Submitted assignment of it has reached its auto-approval time by `now`. */
  autoApprovalDue: boolean
}

const DAY_S = 86_400

export function upsertHits(db: Db, hits: readonly ListedHit[], listedAt: number): void {
  for (const h of hits) {
    run(
      db,
      sql`INSERT INTO mturk_hits (hit_id, hit_type_id, title, created_at, expires_at, disposal_at,
            status, max_assignments, signature, raw, listed_at)
          VALUES (${h.hitId}, ${h.hitTypeId}, ${h.title}, ${h.createdAt}, ${h.expiresAt},
            ${h.disposalAt}, ${h.status}, ${h.maxAssignments}, ${h.signature}, ${h.raw}, ${listedAt})
          ON CONFLICT (hit_id) DO UPDATE SET hit_type_id = excluded.hit_type_id,
            title = excluded.title, created_at = excluded.created_at,
            expires_at = excluded.expires_at, disposal_at = excluded.disposal_at,
            status = excluded.status, max_assignments = excluded.max_assignments,
            signature = excluded.signature, raw = excluded.raw, listed_at = excluded.listed_at,
            gone_at = NULL`,
    )
  }
}

/** HITs a complete listing no longer has are gone (disposed or deleted); returns how many. */
export function markGoneExcept(db: Db, listed: readonly string[], at: number): number {
  return run(
    db,
    sql`UPDATE mturk_hits SET gone_at = ${at}
        WHERE gone_at IS NULL AND hit_id NOT IN (SELECT value FROM json_each(${JSON.stringify(listed)}))`,
  ).changes
}

export function markHitGone(db: Db, hitId: string, at: number): void {
  run(db, sql`UPDATE mturk_hits SET gone_at = coalesce(gone_at, ${at}) WHERE hit_id = ${hitId}`)
}

/** Every page of the HIT's work is stored, as of the listing with `signature`. */
export function markHitPulled(db: Db, hitId: string, signature: string, at: number): void {
  run(
    db,
    sql`UPDATE mturk_hits SET pulled_at = ${at}, pulled_signature = ${signature}
        WHERE hit_id = ${hitId}`,
  )
}

export function hitStates(db: Db, hitIds: readonly string[], nowSeconds: number): StoredHitState[] {
  if (hitIds.length === 0) return []
  return all<{
    hitId: string
    pulledSignature: string | null
    pulledAt: number | null
    due: number
  }>(
    db,
    sql`SELECT h.hit_id AS hitId, h.pulled_signature AS pulledSignature, h.pulled_at AS pulledAt,
          EXISTS (SELECT 1 FROM mturk_assignments a WHERE a.hit_id = h.hit_id
            AND a.status = 'Submitted' AND a.auto_approval_at <= ${nowSeconds}) AS due
        FROM mturk_hits h WHERE h.hit_id IN (SELECT value FROM json_each(${JSON.stringify(hitIds)}))`,
  ).map(({ due, ...rest }) => ({ ...rest, autoApprovalDue: due === 1 }))
}

/** The HITs the project knows, newest first, with their pulled work by status. */
export function hitRows(db: Db, nowSeconds: number, nearDays = 10): MTurkHitRow[] {
  const rows = all<MTurkHit & { pulledAt: number | null; goneAt: number | null; counts: string }>(
    db,
    sql`SELECT h.hit_id AS hitId, h.hit_type_id AS hitTypeId, h.title, h.created_at AS createdAt,
          h.expires_at AS expiresAt, h.disposal_at AS disposalAt, h.status,
          h.max_assignments AS maxAssignments, h.pulled_at AS pulledAt, h.gone_at AS goneAt,
          (SELECT json_group_object(status, n) FROM (SELECT a.status, count(*) AS n
             FROM mturk_assignments a WHERE a.hit_id = h.hit_id GROUP BY a.status)) AS counts
        FROM mturk_hits h ORDER BY h.created_at DESC, h.hit_id`,
  )
  return rows.map(({ goneAt, counts, ...h }) => {
    const byStatus = JSON.parse(counts) as Partial<Record<AssignmentStatus, number>>
    const days = h.disposalAt === null ? null : Math.floor((h.disposalAt - nowSeconds) / DAY_S)
    return {
      ...h,
      daysToDisposal: days,
      nearDisposal:
        goneAt === null && h.disposalAt !== null && h.disposalAt - nowSeconds <= nearDays * DAY_S,
      pulled: {
        Submitted: byStatus.Submitted ?? 0,
        Approved: byStatus.Approved ?? 0,
        Rejected: byStatus.Rejected ?? 0,
      },
      gone: goneAt !== null,
    }
  })
}
