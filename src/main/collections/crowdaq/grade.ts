import { UserError } from '../../../shared/contract/errors'
import {
  type GradedAttempt,
  bandFor,
  gradeAttempts,
  gradeValue,
  standingAttempts,
} from '../../../shared/crowdaq/grading'
import type { PlannedQualification } from '../../../shared/crowdaq/contract'
import type { Db } from '../../db/connection'
import { examAttempts } from './db/attempts'
import { type ExamRow, type QuestionRow, examQuestions, examRow } from './db/specs'

export interface GradedExam {
  exam: ExamRow
  questions: QuestionRow[]
  attempts: ReturnType<typeof examAttempts>
  graded: GradedAttempt[]
  /** Each worker's standing attempt: the last one not flagged. */
  standing: Map<string, GradedAttempt>
}

export function requireExam(db: Db, examId: string): ExamRow {
  const exam = examRow(db, examId)
  if (!exam) {
    throw new UserError({
      type: 'not-found',
      code: 'no-exam',
      message: `There is no exam '${examId}' in this project.`,
      field: 'examId',
    })
  }
  return exam
}

/** Grades every attempt of an exam from the project's answers and the exam's current key. */
export function gradeExam(db: Db, examId: string): GradedExam {
  const exam = requireExam(db, examId)
  const questions = examQuestions(db, examId)
  const attempts = examAttempts(db, examId)
  const key = new Map(questions.map((q) => [q.questionId, q.answer]))
  const graded = gradeAttempts(exam.settings, key, attempts)
  return { exam, questions, attempts, graded, standing: standingAttempts(graded) }
}

export function plannedQualifications(
  g: GradedExam,
  sentBefore: (qualificationTypeId: string) => Map<string, number>,
): PlannedQualification[] {
  const sent = new Map<string, Map<string, number>>()
  const out: PlannedQualification[] = []
  for (const [workerId, a] of g.standing) {
    const band = bandFor(g.exam.settings.bands, a.grade)
    if (!band?.qualificationTypeId) continue
    const type = band.qualificationTypeId
    let before = sent.get(type)
    if (!before) {
      before = sentBefore(type)
      sent.set(type, before)
    }
    const value = band.value ?? gradeValue(a.grade)
    out.push({
      workerId,
      band: band.name,
      grade: a.grade,
      qualificationTypeId: type,
      value,
      alreadySent: before.get(workerId) === value,
    })
  }
  return out.sort((a, b) => a.workerId.localeCompare(b.workerId))
}
