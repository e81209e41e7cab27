import type { AttemptInput } from '../../../../shared/crowdaq/grading'
import type { Db } from '../../../db/connection'
import { all, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'

/** Exam attempts: one row per attempt, one answer row per question it showed. */

export interface NewAttempt {
  examId: string
  workerId: number
  platform: string | null
  source: 'crowdaq' | 'csv' | 'mturk'
  sourceKey: string
  completedAt: number | null
  /** Epoch seconds; null when the source does not say. */
  startedAt: number | null
  deadline: number | null
  sourceOrder: number
  /** Question id → chosen option (null: unanswered), for the questions shown. */
  answers: ReadonlyMap<string, string | null>
}

/**
 * Adds an attempt; false when the same source row was imported before. Such a row only learns
 * the start and deadline it lacked (kept before the project recorded them): nothing else changes.
 */
export function addAttempt(db: Db, a: NewAttempt, changeSetId: number): boolean {
  const inserted = run(
    db,
    sql`INSERT INTO crowdaq_exam_attempts (id, exam_id, worker_id, platform, source, source_key,
          completed_at, started_at, deadline, source_order, change_set_id)
        VALUES (${nextBandId(db, 'crowdaq_exam_attempts')}, ${a.examId}, ${a.workerId}, ${a.platform}, ${a.source}, ${a.sourceKey},
          ${a.completedAt}, ${a.startedAt}, ${a.deadline}, ${a.sourceOrder}, ${changeSetId})
        ON CONFLICT (source_key) DO NOTHING`,
  )
  if (inserted.changes === 0) {
    if (a.startedAt !== null || a.deadline !== null) {
      run(
        db,
        sql`UPDATE crowdaq_exam_attempts SET started_at = ${a.startedAt}, deadline = ${a.deadline}
            WHERE source_key = ${a.sourceKey} AND started_at IS NULL AND deadline IS NULL`,
      )
    }
    return false
  }
  const id = Number(inserted.lastInsertRowid)
  for (const [questionId, answer] of a.answers) {
    run(
      db,
      sql`INSERT INTO crowdaq_attempt_answers (attempt_id, question_id, answer)
          VALUES (${id}, ${questionId}, ${answer})`,
    )
  }
  return true
}

/** Every attempt of an exam with its shown questions and answers, for grading and the report. */
export function examAttempts(db: Db, examId: string): AttemptInput[] {
  const rows = all<{
    id: number
    workerId: string
    completedAt: number | null
    startedAt: number | null
    deadline: number | null
    sourceOrder: number
    questionId: string | null
    answer: string | null
  }>(
    db,
    sql`SELECT a.id, w.external_id AS workerId, a.completed_at AS completedAt,
          a.started_at AS startedAt, a.deadline, a.source_order AS sourceOrder, x.question_id AS questionId, x.answer
        FROM crowdaq_exam_attempts a
        JOIN workers w ON w.id = a.worker_id
        LEFT JOIN crowdaq_attempt_answers x ON x.attempt_id = a.id
        WHERE a.exam_id = ${examId}
        ORDER BY a.id`,
  )
  const out: AttemptInput[] = []
  let current: (AttemptInput & { shown: string[]; answers: Record<string, string | null> }) | null =
    null
  for (const r of rows) {
    if (!current || current.id !== r.id) {
      current = {
        id: r.id,
        workerId: r.workerId,
        completedAt: r.completedAt,
        startedAt: r.startedAt,
        deadline: r.deadline,
        order: r.sourceOrder,
        shown: [],
        answers: {},
      }
      out.push(current)
    }
    if (r.questionId !== null) {
      current.shown.push(r.questionId)
      current.answers[r.questionId] = r.answer
    }
  }
  return out
}

/**
 * Each listed worker's annotations by effective rating (`null`: unrated), for the report's
 * question whether the exam predicts main-task quality.
 */
export function annotationsByRating(
  db: Db,
  workerIds: readonly string[],
): Map<string, { rating: number | null; n: number }[]> {
  const out = new Map<string, { rating: number | null; n: number }[]>()
  if (workerIds.length === 0) return out
  for (let i = 0; i < workerIds.length; i += 500) {
    const chunk = workerIds.slice(i, i + 500)
    const rows = all<{ workerId: string; rating: number | null; n: number }>(
      db,
      sql`SELECT w.external_id AS workerId, a.rating, count(*) AS n
          FROM workers w JOIN annotations a ON a.worker_id = w.id
          WHERE w.external_id IN ${sql.list(chunk)}
          GROUP BY w.id, a.rating`,
    )
    for (const r of rows) {
      const list = out.get(r.workerId) ?? []
      list.push({ rating: r.rating, n: r.n })
      out.set(r.workerId, list)
    }
  }
  return out
}

/** Successful qualifications already recorded for a type and value, by worker. */
export function qualifiedBefore(db: Db, qualificationTypeId: string): Map<string, number> {
  const rows = all<{ workerId: string; value: number }>(
    db,
    sql`SELECT t.worker_external_id AS workerId, json_extract(x.request, '$.IntegerValue') AS value
        FROM worker_actions x JOIN worker_action_targets t ON t.action_id = x.id
        WHERE x.action = 'qualify' AND x.error IS NULL AND t.failure IS NULL
          AND json_extract(x.request, '$.QualificationTypeId') = ${qualificationTypeId}
        ORDER BY x.id`,
  )
  return new Map(rows.map((r) => [r.workerId, r.value]))
}
