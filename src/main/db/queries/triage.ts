import type {
  TriageMark,
  TriageMemberProgress,
  TriageQueue,
  TriageQueueItem,
} from '../../../shared/contract/triage'
import { UserError } from '../../../shared/contract/errors'
import { formatDay } from '../../../shared/filter'
import type { Db } from '../connection'
import { all, get, pluck, run } from '../connection'
import { sql } from '../sql'
import { teamState } from './team/state'
import { claimsOf } from './team/claims'

/** One submission of a range: its worker, annotation count, dimensions (bit d set) and work time. */
export interface RangeSubmission {
  submissionId: number
  workerId: number
  dimensions: number
  mask: number
  /** submitted − accepted in seconds; null without an accept time. */
  workSeconds: number | null
}

/**
 * The submissions with annotations submitted in [start, until) (epoch seconds), from one range
 * of `ann_date` plus a primary-key look-up of each submission's accept time. Rows without one
 * worker (test-set references) are left out.
 */
export function rangeSubmissions(db: Db, start: number, until: number): RangeSubmission[] {
  return all<RangeSubmission>(
    db,
    sql`SELECT g.sub AS submissionId, g.worker AS workerId, g.n AS dimensions, g.mask,
          s.submitted_at - s.accepted_at AS workSeconds
        FROM (SELECT a.id >> 4 AS sub, a.worker_id AS worker, count(*) AS n,
                sum(1 << a.dimension) AS mask
              FROM annotations a INDEXED BY ann_date
              WHERE a.submitted_at >= ${start} AND a.submitted_at < ${until}
                AND a.worker_id IS NOT NULL
              GROUP BY a.id >> 4) g
        JOIN submissions s ON s.id = g.sub`,
  )
}

/** External id and first submission ever of each worker. */
export function workerFacts(
  db: Db,
  workerIds: readonly number[],
): Map<number, { externalId: string; first: number | null }> {
  const rows = all<{ id: number; externalId: string; first: number | null }>(
    db,
    sql`SELECT w.id, w.external_id AS externalId,
          (SELECT min(submitted_at) FROM submissions s WHERE s.worker_id = w.id) AS first
        FROM workers w WHERE w.id IN (SELECT value FROM json_each(${JSON.stringify(workerIds)}))`,
  )
  return new Map(rows.map((r) => [r.id, { externalId: r.externalId, first: r.first }]))
}

/** Epoch seconds of the latest submission that has annotations; null in an empty project. */
export function lastSubmittedAt(db: Db): number | null {
  return pluck<number | null>(db, sql`SELECT max(submitted_at) FROM annotations`) ?? null
}

export function lastTriagedDay(db: Db): string | null {
  return (
    pluck<string>(
      db,
      sql`SELECT to_day FROM triage_queues ORDER BY to_day DESC, id DESC LIMIT 1`,
    ) ?? null
  )
}

export interface NewQueue {
  from: string
  to: string
  share: number
  seed: number
  author: string
  submissionIds: readonly number[]
  /** The change set that makes it, and its time (epoch ms). */
  changeSetId: number
  at: number
}

export function insertQueue(db: Db, q: NewQueue): number {
  const id = Number(
    run(
      db,
      sql`INSERT INTO triage_queues (from_day, to_day, share, seed, author, created_at, change_set_id)
          VALUES (${q.from}, ${q.to}, ${q.share}, ${q.seed}, ${q.author}, ${q.at}, ${q.changeSetId})`,
    ).lastInsertRowid,
  )
  run(
    db,
    sql`INSERT INTO triage_items (queue_id, position, submission_id)
        SELECT ${id}, key + 1, value FROM json_each(${JSON.stringify(q.submissionIds)})`,
  )
  return id
}

export function currentQueueId(db: Db): number | null {
  return (
    pluck<number>(
      db,
      sql`SELECT id FROM triage_queues WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1`,
    ) ?? null
  )
}

function missingQueue(queueId: number): UserError {
  return new UserError({
    type: 'not-found',
    code: 'no-such-triage-queue',
    message: `No triage queue ${queueId}.`,
    field: 'queueId',
  })
}

export function triageQueue(db: Db, queueId: number): TriageQueue {
  const q = get<Omit<TriageQueue, 'items' | 'next'>>(
    db,
    sql`SELECT id, from_day AS "from", to_day AS "to", share, seed, created_at AS createdAt,
          finished_at AS finishedAt FROM triage_queues WHERE id = ${queueId}`,
  )
  if (!q) throw missingQueue(queueId)
  const items = all<Omit<TriageQueueItem, 'annotationIds' | 'marks'> & { annotationIds: string }>(
    db,
    sql`SELECT i.position, i.submission_id AS submissionId, w.external_id AS workerId, i.feedback,
          i.reviewed_at AS reviewedAt,
          (SELECT json_group_array(a.id) FROM annotations a
            WHERE a.id BETWEEN i.submission_id * 16 AND i.submission_id * 16 + 15) AS annotationIds
        FROM triage_items i
        JOIN submissions s ON s.id = i.submission_id
        LEFT JOIN workers w ON w.id = s.worker_id
        WHERE i.queue_id = ${queueId} ORDER BY i.position`,
  )
  const marks = all<{ annotationId: number; mark: TriageMark; note: string }>(
    db,
    sql`SELECT annotation_id AS annotationId, mark, note FROM triage_marks
        WHERE queue_id = ${queueId} ORDER BY annotation_id`,
  )
  const bySubmission = new Map<number, typeof marks>()
  for (const m of marks) {
    const sub = Math.floor(m.annotationId / 16)
    const list = bySubmission.get(sub) ?? []
    list.push(m)
    bySubmission.set(sub, list)
  }
  const claims = claimsOf(db, queueId)
  const full: TriageQueueItem[] = items.map((i) => {
    const claimedBy = claims?.get(i.position)
    return {
      ...i,
      annotationIds: (JSON.parse(i.annotationIds) as number[]).sort((a, b) => a - b),
      marks: bySubmission.get(i.submissionId) ?? [],
      ...(claimedBy === undefined ? {} : { claimedBy }),
    }
  })
  if (claims === null) {
    return { ...q, items: full, next: full.find((i) => i.reviewedAt === null)?.position ?? null }
  }
  const me = teamState(db)?.member
  const members = new Map<string, TriageMemberProgress>()
  for (const item of full) {
    if (item.claimedBy === undefined) continue
    const m = members.get(item.claimedBy) ?? { member: item.claimedBy, claimed: 0, reviewed: 0 }
    m.claimed++
    if (item.reviewedAt !== null) m.reviewed++
    members.set(item.claimedBy, m)
  }
  const next = full.find(
    (i) => i.reviewedAt === null && (i.claimedBy === undefined || i.claimedBy === me),
  )
  return {
    ...q,
    items: full,
    next: next?.position ?? null,
    members: [...members.values()].sort((a, b) => a.member.localeCompare(b.member)),
  }
}

/** The item's submission and worker, or a not-found error naming the field. */
export function requireItem(
  db: Db,
  queueId: number,
  position: number,
): { submissionId: number; workerId: string | null; feedback: string; reviewedAt: number | null } {
  const found = get<{
    submissionId: number
    workerId: string | null
    feedback: string
    reviewedAt: number | null
  }>(
    db,
    sql`SELECT i.submission_id AS submissionId, w.external_id AS workerId, i.feedback,
          i.reviewed_at AS reviewedAt
        FROM triage_items i JOIN submissions s ON s.id = i.submission_id
          LEFT JOIN workers w ON w.id = s.worker_id
        WHERE i.queue_id = ${queueId} AND i.position = ${position}`,
  )
  if (found === undefined) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-triage-item',
      message: `Triage queue ${queueId} has no item ${position}.`,
      field: 'position',
    })
  }
  return found
}

/** The mark of a queued annotation (null when unmarked); a not-found error when it is not queued. */
export function requireQueuedMark(
  db: Db,
  queueId: number,
  annotationId: number,
): { mark: TriageMark; note: string } | null {
  const queued = pluck<number>(
    db,
    sql`SELECT 1 FROM triage_items WHERE queue_id = ${queueId}
          AND submission_id = ${Math.floor(annotationId / 16)}`,
  )
  if (queued === undefined) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-triage-item',
      message: `Annotation ${annotationId} is not in triage queue ${queueId}.`,
      field: 'annotationId',
    })
  }
  return (
    get<{ mark: TriageMark; note: string }>(
      db,
      sql`SELECT mark, note FROM triage_marks
          WHERE queue_id = ${queueId} AND annotation_id = ${annotationId}`,
    ) ?? null
  )
}

/** Sets (or with null clears) an annotation's mark as the change set at `at` left it. */
export function putMark(
  db: Db,
  queueId: number,
  annotationId: number,
  value: { mark: TriageMark; note: string } | null,
  at: number,
): void {
  if (value === null) {
    run(
      db,
      sql`DELETE FROM triage_marks WHERE queue_id = ${queueId} AND annotation_id = ${annotationId}`,
    )
    return
  }
  run(
    db,
    sql`INSERT INTO triage_marks (queue_id, annotation_id, mark, note, marked_at)
        VALUES (${queueId}, ${annotationId}, ${value.mark}, ${value.note}, ${at})
        ON CONFLICT (queue_id, annotation_id) DO UPDATE SET mark = excluded.mark,
          note = excluded.note, marked_at = excluded.marked_at`,
  )
}

export function setFeedback(db: Db, queueId: number, position: number, feedback: string): void {
  run(
    db,
    sql`UPDATE triage_items SET feedback = ${feedback}
        WHERE queue_id = ${queueId} AND position = ${position}`,
  )
}

/**
 * Marks an item reviewed at `reviewedAt` (epoch ms) or, with null, not reviewed; the queue is
 * finished while every item is reviewed.
 */
export function setReviewed(
  db: Db,
  queueId: number,
  position: number,
  reviewedAt: number | null,
): void {
  run(
    db,
    sql`UPDATE triage_items SET reviewed_at = ${reviewedAt}
        WHERE queue_id = ${queueId} AND position = ${position}`,
  )
  run(
    db,
    sql`UPDATE triage_queues SET finished_at = CASE WHEN EXISTS (SELECT 1 FROM triage_items
          WHERE queue_id = ${queueId} AND reviewed_at IS NULL) THEN NULL
          ELSE (SELECT max(reviewed_at) FROM triage_items WHERE queue_id = ${queueId}) END
        WHERE id = ${queueId}`,
  )
}

/** The day (UTC) of an epoch-seconds time, or null. */
export function dayOf(epochSeconds: number | null): string | null {
  return epochSeconds === null ? null : formatDay(epochSeconds)
}
