import { type GradedAttempt, gradeValue } from './grading'
import { largest } from '../lists'

/**
 * The report of an exam: the grade histogram, per question how often it was shown and answered
 * right with the options chosen and a discrimination index, and questions strong workers miss.
 */

export interface AttemptAnswers {
  attemptId: number
  shown: readonly string[]
  answers: Readonly<Record<string, string | null>>
}

interface QuestionStats {
  questionId: string
  answer: string
  enabled: boolean
  shown: number
  correct: number
  /** correct ÷ shown; null when never shown. */
  shareCorrect: number | null
  /** Chosen option → count (unanswered not counted). */
  responses: Record<string, number>
  /** Share correct in the top 27% of attempts by grade minus the bottom 27%; null when unknown. */
  discrimination: number | null
  /** Share correct among the top 27%; null when none of them saw it. */
  upperCorrect: number | null
  /** Strong workers miss it (upper share correct below ½) or it favours weak ones (index < 0). */
  revise: boolean
}

export interface ExamReportCore {
  /** round(grade × 100) → attempts. */
  grades: Record<string, number>
  questions: QuestionStats[]
}

const GROUP_SHARE = 0.27

export function examReport(
  questions: readonly { questionId: string; answer: string; enabled: boolean }[],
  graded: readonly GradedAttempt[],
  answers: readonly AttemptAnswers[],
): ExamReportCore {
  const grades: Record<string, number> = {}
  for (const a of graded) {
    const key = String(gradeValue(a.grade))
    grades[key] = (grades[key] ?? 0) + 1
  }
  const key = new Map(questions.map((q) => [q.questionId, q.answer]))
  const ranked = [...graded].sort((a, b) => b.grade - a.grade || a.id - b.id)
  const size = ranked.length < 2 ? 0 : Math.max(1, Math.round(ranked.length * GROUP_SHARE))
  const upper = new Set(ranked.slice(0, size).map((a) => a.id))
  const lower = new Set(ranked.slice(ranked.length - size).map((a) => a.id))

  interface Tally {
    shown: number
    correct: number
    responses: Record<string, number>
    up: [number, number]
    low: [number, number]
  }
  const tallies = new Map<string, Tally>()
  const tally = (q: string): Tally => {
    let t = tallies.get(q)
    if (!t) {
      t = { shown: 0, correct: 0, responses: {}, up: [0, 0], low: [0, 0] }
      tallies.set(q, t)
    }
    return t
  }
  for (const a of answers) {
    for (const q of a.shown) {
      const t = tally(q)
      const chosen = a.answers[q]
      const right = chosen !== undefined && chosen !== null && chosen === key.get(q) ? 1 : 0
      t.shown++
      t.correct += right
      if (chosen !== undefined && chosen !== null) {
        t.responses[chosen] = (t.responses[chosen] ?? 0) + 1
      }
      if (upper.has(a.attemptId)) {
        t.up[0] += right
        t.up[1]++
      }
      if (lower.has(a.attemptId)) {
        t.low[0] += right
        t.low[1]++
      }
    }
  }
  const share = ([right, seen]: [number, number]): number | null =>
    seen === 0 ? null : right / seen
  return {
    grades,
    questions: questions.map((q) => {
      const t = tallies.get(q.questionId) ?? tally(q.questionId)
      const up = share(t.up)
      const low = share(t.low)
      const discrimination = up === null || low === null ? null : up - low
      return {
        questionId: q.questionId,
        answer: q.answer,
        enabled: q.enabled,
        shown: t.shown,
        correct: t.correct,
        shareCorrect: t.shown === 0 ? null : t.correct / t.shown,
        responses: t.responses,
        discrimination,
        upperCorrect: up,
        revise: (up !== null && up < 0.5) || (discrimination !== null && discrimination < 0),
      }
    }),
  }
}

/**
 * A worker's choice in a multiple-choice or multi-label collector, as a key two choices share
 * exactly when they are the same: a multi-label answer's labels in one order whatever order they
 * were ticked in, joined with `+` ("L+S"), as the task review lists disagreements.
 */
export function answerKey(value: unknown): string {
  return Array.isArray(value) ? (value as unknown[]).map(String).sort().join('+') : String(value)
}

/**
 * Majority-share agreement of one collector across workers: per task, the share of workers who
 * chose the most common value (multi-label values compared as whole sets of labels).
 */
export function majorityShare(values: readonly unknown[]): number | null {
  const keys = values.filter((v) => v !== undefined && v !== null && v !== '').map(answerKey)
  if (keys.length === 0) return null
  const counts = new Map<string, number>()
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1)
  return largest(counts.values()) / keys.length
}
