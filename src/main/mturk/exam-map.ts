/**
 * Turns one pulled assignment of an exam's qualification HIT into an exam attempt: the worker,
 * when they accepted and submitted it, and per question id the option chosen. The HIT's form names
 * its answer fields by question id (a QuestionForm's QuestionIdentifier, an HTML form's field
 * name); fields that are not questions of the exam are not answers.
 *
 * Which questions the attempt showed: a `shown` field listing question ids (space or comma
 * separated) when the form posts one (a form that draws its own subset should); otherwise every
 * enabled question when the exam asks all of them, since a form does not post an unanswered
 * choice; otherwise the questions answered. An answer that cannot be read counts as no answers.
 */
import type { Assignment, HIT } from '@aws-sdk/client-mturk'
import { isHtmlEscapedQuestion, parseAnswer } from './answers'
import { epochSeconds } from './glucose-map'

/** The exam a pull stores attempts for: its enabled questions, and whether it asks them all. */
export interface ExamPullTarget {
  examId: string
  /** Enabled question ids, in the exam's order. */
  questionIds: readonly string[]
  /** Every attempt is asked every enabled question (questions per attempt 0, or the pool). */
  asksAll: boolean
}

export interface PulledAttempt {
  /** `mturk:<AssignmentId>`: a second pull of the same assignment adds nothing. */
  sourceKey: string
  workerExternalId: string
  /** Epoch seconds. */
  completedAt: number | null
  startedAt: number | null
  deadline: number | null
  /** Question id → option chosen (null: shown, not answered). */
  answers: Map<string, string | null>
}

/** The form field a HIT posts with the question ids it showed, when it draws its own subset. */
const SHOWN_FIELD = 'shown'

export function toExamAttempt(
  hit: Pick<HIT, 'Question'>,
  assignment: Assignment,
  target: ExamPullTarget,
): PulledAttempt {
  const parsed = parseAnswer(assignment.Answer, {
    htmlEscaped: isHtmlEscapedQuestion(hit.Question),
  })
  const fields = parsed.ok ? parsed.fields : {}
  const questions = new Set(target.questionIds)
  const chosen = new Map<string, string>()
  for (const [field, value] of Object.entries(fields)) {
    if (questions.has(field) && value.trim() !== '') chosen.set(field, value.trim())
  }
  const listed = fields[SHOWN_FIELD]?.split(/[\s,]+/).filter((id) => questions.has(id))
  const shown =
    listed && listed.length > 0
      ? listed
      : target.asksAll
        ? target.questionIds
        : target.questionIds.filter((id) => chosen.has(id))
  return {
    sourceKey: `mturk:${assignment.AssignmentId ?? ''}`,
    workerExternalId: assignment.WorkerId ?? '',
    completedAt: epochSeconds(assignment.SubmitTime),
    startedAt: epochSeconds(assignment.AcceptTime),
    deadline: epochSeconds(assignment.Deadline),
    answers: new Map(shown.map((id) => [id, chosen.get(id) ?? null])),
  }
}
