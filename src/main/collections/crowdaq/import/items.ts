import {
  type ExamSettings,
  DEFAULT_SETTINGS,
  defaultBands,
} from '../../../../shared/crowdaq/grading'
import { filterValues } from '../../../../shared/crowdaq/conditions'
import type { ExamSpec, TaskSpec } from '../../../../shared/crowdaq/spec'
import type { CsvAttemptRow } from './attemptsCsv'
import type { JsonPath } from './problems'
import type { FoundItem } from './read'
import type { ItemValue } from './validate'

/** What an import makes of the items it found, before and as it writes them. */

export interface Valid<K extends FoundItem['kind']> {
  value: ItemValue<K>
  item: FoundItem
}

/** Epoch seconds from CROWDAQ's times (ISO strings or epoch ms / s). */
export function toSeconds(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'number') return Math.floor(v > 1e11 ? v / 1000 : v)
  if (/^\d+$/.test(v)) return toSeconds(Number(v))
  const ms = Date.parse(v)
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000)
}

/**
 * The items of one exam in one import are pages of its question set (a desktop export keeps an
 * exam's questions in pages): they become one exam, its questions in page order. A question id
 * on two pages is a problem of the later one.
 */
export function mergePages(
  exams: Valid<'exam'>[],
  at: (item: FoundItem, rest: JsonPath, message: string) => void,
): Valid<'exam'>[] {
  const byId = new Map<string, { merged: Valid<'exam'>; seen: Map<string, string> }>()
  for (const page of exams) {
    const known = byId.get(page.value.exam_id)
    if (!known) {
      const seen = new Map(page.value.question_set.map((q) => [q.question_id, page.item.doc.file]))
      byId.set(page.value.exam_id, { merged: { ...page, value: { ...page.value } }, seen })
      continue
    }
    const questions = [...known.merged.value.question_set]
    page.value.question_set.forEach((q, i) => {
      const other = known.seen.get(q.question_id)
      if (other !== undefined) {
        at(
          page.item,
          ['question_set', i, 'question_id'],
          `question id '${q.question_id}' is used twice (also in ${other})`,
        )
        return
      }
      known.seen.set(q.question_id, page.item.doc.file)
      questions.push(q)
    })
    known.merged.value = { ...page.value, ...known.merged.value, question_set: questions }
  }
  return [...byId.values()].map((e) => e.merged)
}

/** An attempts CSV's rows as attempts, by `worker|attempt`: the questions shown and answers. */
export function attemptsOfRows(
  rows: readonly CsvAttemptRow[],
): Map<string, { workerId: string; attempt: number; answers: Map<string, string | null> }> {
  const attempts = new Map<
    string,
    { workerId: string; attempt: number; answers: Map<string, string | null> }
  >()
  for (const r of rows) {
    const k = `${r.workerId}|${r.attempt}`
    let a = attempts.get(k)
    if (!a) {
      a = { workerId: r.workerId, attempt: r.attempt, answers: new Map() }
      attempts.set(k, a)
    }
    if (r.shown) a.answers.set(r.questionId, r.answer)
  }
  return attempts
}

export function examInput(e: ExamSpec) {
  const settings: Partial<ExamSettings> = {
    ...(e.num_of_questions !== undefined ? { questionsPerAttempt: e.num_of_questions } : {}),
    ...(e.passing_grade !== undefined ? { passingGrade: e.passing_grade } : {}),
    ...(e.max_attempts !== undefined ? { attemptsAllowed: e.max_attempts } : {}),
    ...(e.time_limit_in_seconds !== undefined ? { timeLimitSeconds: e.time_limit_in_seconds } : {}),
    ...(e.qualification_id !== undefined ? { qualificationTypeId: e.qualification_id } : {}),
  }
  const qualification = e.qualification_id ?? null
  return {
    id: e.exam_id,
    instructionId: e.instruction_id ?? null,
    tutorialId: e.tutorial_id ?? null,
    settings,
    defaults: {
      ...DEFAULT_SETTINGS,
      qualificationTypeId: qualification,
      bands: defaultBands(qualification),
    },
    questions: e.question_set,
  }
}

/**
 * The displayed values of a response. New responses carry `filteredResult`; old ones are the bare
 * result, filtered here with the task's conditions.
 */
export function normaliseResponse(spec: TaskSpec, raw: unknown): Record<string, unknown> {
  const r = (raw ?? {}) as Record<string, unknown>
  if (r.filteredResult && typeof r.filteredResult === 'object')
    return r.filteredResult as Record<string, unknown>
  const source = (r.result && typeof r.result === 'object' ? r.result : r) as Record<
    string,
    unknown
  >
  const out: Record<string, unknown> = {}
  for (const group of spec.annotation_groups) {
    const v = source[group.id]
    if (Array.isArray(v)) {
      out[group.id] = v.map((entry) => filterValues(group, (entry ?? {}) as Record<string, never>))
    } else if (v && typeof v === 'object') {
      out[group.id] = filterValues(group, v as Record<string, never>)
    }
  }
  return out
}
