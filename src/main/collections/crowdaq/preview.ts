import { randomInt } from 'node:crypto'
import { UserError } from '../../../shared/contract/errors'
import type {
  PreviewContext,
  PreviewQuestion,
  QuestionSetPreview,
  TaskPreview,
} from '../../../shared/crowdaq/contract'
import type { SafeNode } from '../../../shared/crowdaq/safeNodes'
import type { Context, Question, TaskSpec, TutorialSpec } from '../../../shared/crowdaq/spec'
import type { Db } from '../../db/connection'
import { examQuestions, specText } from './db/specs'
import { requireExam } from './grade'
import { markdownNodes, safeNodes } from './render'

/** What the page needs to show exams, tutorials and tasks as a worker would see them. */

export function previewContext(c: Context): PreviewContext {
  const base = { type: c.type, id: c.id ?? null, label: c.label ?? null }
  switch (c.type) {
    case 'text':
      return {
        ...base,
        text: c.text,
        html: null,
        src: null,
        highlight: (c.highlight ?? []).map((h) => ({ start: h.start, end: h.end })),
      }
    case 'html':
      return { ...base, text: null, html: safeNodes(c.html), src: null, highlight: [] }
    default:
      return { ...base, text: null, html: null, src: c.src, highlight: [] }
  }
}

function previewQuestion(q: Question, enabled: boolean): PreviewQuestion {
  return {
    questionId: q.question_id,
    text: q.question.question_text,
    options: Object.entries(q.question.options).map(([key, label]) => ({ key, label })),
    contexts: (q.question.context ?? []).map(previewContext),
    answer: q.answer,
    explanation: q.explanation ?? null,
    enabled,
  }
}

/** `count` of `items` in random order (all when count is 0 or more than there are). */
function randomSubset<T>(items: readonly T[], count: number, pick = randomInt): T[] {
  const pool = [...items]
  for (let i = pool.length - 1; i > 0; i--) {
    const j = pick(i + 1)
    ;[pool[i], pool[j]] = [pool[j] as T, pool[i] as T]
  }
  return count > 0 && count < pool.length ? pool.slice(0, count) : pool
}

function instruction(db: Db, id: string | null | undefined): SafeNode[] | null {
  if (!id) return null
  const text = specText(db, 'instruction', id)
  return text === undefined ? null : markdownNodes(text)
}

export function previewQuestionSet(
  db: Db,
  kind: 'exam' | 'tutorial',
  id: string,
): QuestionSetPreview {
  if (kind === 'exam') {
    const exam = requireExam(db, id)
    const questions = examQuestions(db, id)
    const enabled = questions.filter((q) => q.enabled)
    const shown = randomSubset(enabled, exam.settings.questionsPerAttempt)
    return {
      kind,
      id,
      instruction: instruction(db, exam.instructionId),
      questions: shown.map((q) => previewQuestion(q.spec, q.enabled)),
      poolSize: questions.length,
      settings: exam.settings,
    }
  }
  const text = specText(db, 'tutorial', id)
  if (text === undefined) throw notFound('tutorial', id)
  const tutorial = JSON.parse(text) as TutorialSpec
  return {
    kind,
    id,
    instruction: instruction(db, tutorial.instruction_id),
    questions: tutorial.question_set.map((q) => previewQuestion(q, !q.disabled)),
    poolSize: tutorial.question_set.length,
    settings: null,
  }
}

export function previewTask(db: Db, id: string): TaskPreview {
  const text = specText(db, 'task', id)
  if (text === undefined) throw notFound('task', id)
  const task = JSON.parse(text) as TaskSpec
  return { id, contexts: (task.contexts ?? []).map(previewContext), groups: task.annotation_groups }
}

export function notFound(kind: string, id: string): UserError {
  return new UserError({
    type: 'not-found',
    code: `no-${kind}`,
    message: `There is no ${kind} '${id}' in this project.`,
  })
}
