import type { ExamReport, WorkerExamRow } from '../../../shared/crowdaq/contract'
import { examReport } from '../../../shared/crowdaq/examReport'
import { attemptTiming, bandFor } from '../../../shared/crowdaq/grading'
import { ratingKey } from '../../../shared/ratings/key'
import type { Db } from '../../db/connection'
import { annotationsByRating } from './db/attempts'
import { gradeExam } from './grade'

/**
 * The exam report: grade histogram and per-question figures (shown, correct, options chosen,
 * discrimination, revise), and per worker their attempts, grades, band and later main-task
 * quality (the share of their annotations per effective rating).
 */
export function buildExamReport(db: Db, examId: string): ExamReport {
  const g = gradeExam(db, examId)
  const core = examReport(
    g.questions.map((q) => ({ questionId: q.questionId, answer: q.answer, enabled: q.enabled })),
    g.graded,
    g.attempts.map((a) => ({ attemptId: a.id, shown: a.shown, answers: a.answers })),
  )
  const byWorker = new Map<string, WorkerExamRow>()
  for (const a of g.graded) {
    let row = byWorker.get(a.workerId)
    if (!row) {
      row = {
        workerId: a.workerId,
        attempts: 0,
        grades: [],
        flags: [],
        band: null,
        grade: null,
        quality: {},
        annotations: 0,
      }
      byWorker.set(a.workerId, row)
    }
    row.attempts++
    row.grades.push(a.grade)
    row.flags.push(a.flags)
  }
  for (const [workerId, a] of g.standing) {
    const row = byWorker.get(workerId)
    if (!row) continue
    row.grade = a.grade
    row.band = bandFor(g.exam.settings.bands, a.grade)?.name ?? null
  }
  const quality = annotationsByRating(db, [...byWorker.keys()])
  for (const [workerId, counts] of quality) {
    const row = byWorker.get(workerId)
    if (!row) continue
    const total = counts.reduce((n, c) => n + c.n, 0)
    row.annotations = total
    for (const c of counts) {
      const key = c.rating === null ? 'unrated' : ratingKey(c.rating)
      row.quality[key] = (row.quality[key] ?? 0) + c.n / total
    }
  }
  return {
    examId,
    attempts: g.graded.length,
    untimed: g.attempts.filter(
      (a) => attemptTiming(a, g.exam.settings.timeLimitSeconds).overTime === null,
    ).length,
    workers: byWorker.size,
    grades: core.grades,
    questions: core.questions,
    workerRows: [...byWorker.values()].sort((a, b) => a.workerId.localeCompare(b.workerId)),
  }
}
