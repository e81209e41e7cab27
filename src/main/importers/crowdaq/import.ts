import { basename } from 'node:path'
import { type ExamSettings, DEFAULT_SETTINGS, defaultBands } from '../../../shared/crowdaq/grading'
import { filterValues } from '../../../shared/crowdaq/conditions'
import type { ExamSpec, TaskSpec, TutorialSpec } from '../../../shared/crowdaq/spec'
import type { Db } from '../../db/connection'
import { createChangeSet, describeChangeSet } from '../../db/queries/changeSets'
import { addAttempt } from '../../db/queries/crowdaqAttempts'
import {
  examIds,
  examQuestions,
  findOrAddWorker,
  putExam,
  putInstruction,
  putTask,
  putTutorial,
  storedTask,
} from '../../db/queries/crowdaqSpecs'
import { addTaskAssignment } from '../../db/queries/crowdaqTasks'
import { type CsvAttemptRow, parseAttemptsCsv } from './attemptsCsv'
import { type FoundItem, findItems } from './read'
import { CrowdaqInputError, type CrowdaqProblem, type JsonPath, formatPath } from './problems'
import { type ItemValue, validateItem } from './validate'

/** What `winnow crowdaq import` counts, by kind; a second import of the same files adds no rows. */
export interface CrowdaqImportCounts {
  exams: number
  tutorials: number
  instructions: number
  tasks: number
  examAttempts: number
  taskAssignments: number
}

export interface CrowdaqImportOptions {
  author: string
  /** The exam an attempts CSV belongs to; needed when the project has more than one. */
  examId?: string | undefined
}

interface Valid<K extends FoundItem['kind']> {
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
 * Imports everything found at `path` in one transaction: every problem of every file is reported
 * together (with file, line, column and JSON path) and then nothing is written.
 */
export function importCrowdaq(
  db: Db,
  path: string,
  options: CrowdaqImportOptions,
): CrowdaqImportCounts {
  const found = findItems(path)
  const problems: CrowdaqProblem[] = [...found.problems]
  const at = (item: FoundItem, rest: JsonPath, message: string): void => {
    const full = [...item.path, ...rest]
    problems.push({
      file: item.doc.file,
      ...item.doc.locate(full),
      path: formatPath(full),
      message,
    })
  }
  const valid = {
    exam: [] as Valid<'exam'>[],
    tutorial: [] as Valid<'tutorial'>[],
    task: [] as Valid<'task'>[],
    examAttempt: [] as Valid<'examAttempt'>[],
    taskAssignment: [] as Valid<'taskAssignment'>[],
  }
  for (const item of found.items) {
    const checked = validateItem(item.kind, item.value)
    if (checked.value === null) {
      for (const p of checked.problems) at(item, p.path, p.message)
      continue
    }
    ;(valid[item.kind] as Valid<typeof item.kind>[]).push({ value: checked.value, item })
  }

  valid.exam = mergePages(valid.exam, at)

  // Exams of this import and of the project: their question ids, for attempts.
  const examQuestionIds = new Map<string, Set<string>>()
  const questionsOf = (examId: string): Set<string> | undefined => {
    let ids = examQuestionIds.get(examId)
    if (!ids) {
      const known = examQuestions(db, examId)
      if (known.length === 0) return undefined
      ids = new Set(known.map((q) => q.questionId))
      examQuestionIds.set(examId, ids)
    }
    return ids
  }
  for (const { value } of valid.exam) {
    examQuestionIds.set(value.exam_id, new Set(value.question_set.map((q) => q.question_id)))
  }
  for (const { value, item } of valid.examAttempt) {
    const ids = questionsOf(value.exam_id)
    if (!ids) {
      at(item, ['exam_id'], `exam '${value.exam_id}' is neither in the project nor in this import`)
      continue
    }
    value.assignment_payload.forEach((q, i) => {
      if (!ids.has(q.question_id)) {
        at(
          item,
          ['assignment_payload', i, 'question_id'],
          `question '${q.question_id}' is not in exam '${value.exam_id}'`,
        )
      }
    })
  }

  const taskIds = new Map<string, TaskSpec>()
  const taskIdOf = (v: Valid<'task'>): string =>
    v.value.annotation_task_id ??
    v.value.id ??
    `${basename(v.item.doc.file.split('!').pop() ?? v.item.doc.file, '.json')}_${String(v.item.path.at(-1) ?? 0)}`
  for (const t of valid.task) taskIds.set(taskIdOf(t), t.value)
  const taskSpec = (id: string): TaskSpec | undefined => {
    const spec = taskIds.get(id)
    if (spec) return spec
    return storedTask(db, id) as TaskSpec | undefined
  }
  const responses: { value: ItemValue<'taskAssignment'>; response: unknown }[] = []
  for (const { value, item } of valid.taskAssignment) {
    const spec = taskSpec(value.annotation_task_id)
    if (!spec) {
      at(
        item,
        ['annotation_task_id'],
        `task '${value.annotation_task_id}' is neither in the project nor in this import`,
      )
      continue
    }
    let raw: unknown = value.response
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw) as unknown
      } catch {
        at(item, ['response'], 'response is not valid JSON')
        continue
      }
    }
    responses.push({ value, response: normaliseResponse(spec, raw) })
  }

  const csvRows: { file: string; rows: CsvAttemptRow[] }[] = []
  for (const csv of found.csv) {
    const parsed = parseAttemptsCsv(csv.file, csv.text)
    problems.push(...parsed.problems)
    csvRows.push({ file: csv.file, rows: parsed.rows })
  }
  let csvExam: string | undefined
  if (csvRows.some((c) => c.rows.length > 0)) {
    const exams = new Set([...valid.exam.map((e) => e.value.exam_id), ...examIds(db)])
    csvExam = options.examId ?? (exams.size === 1 ? [...exams][0] : undefined)
    const first = csvRows[0]?.file ?? ''
    if (!csvExam) {
      problems.push({
        file: first,
        line: 0,
        column: 0,
        path: '',
        message: 'name the exam these attempts belong to (--exam ID)',
      })
    } else if (!exams.has(csvExam)) {
      problems.push({
        file: first,
        line: 0,
        column: 0,
        path: '',
        message: `exam '${csvExam}' is not in the project`,
      })
    } else {
      const ids = questionsOf(csvExam) ?? new Set<string>()
      for (const { file, rows } of csvRows) {
        for (const r of rows) {
          if (r.questionId && !ids.has(r.questionId)) {
            problems.push({
              file,
              line: r.line,
              column: 1,
              path: 'question_id',
              message: `question '${r.questionId}' is not in exam '${csvExam}'`,
            })
          }
        }
      }
    }
  }
  if (problems.length > 0) throw new CrowdaqInputError(problems)

  return db
    .transaction((): CrowdaqImportCounts => {
      const counts: CrowdaqImportCounts = {
        exams: 0,
        tutorials: 0,
        instructions: 0,
        tasks: 0,
        examAttempts: 0,
        taskAssignments: 0,
      }
      const changeSet = createChangeSet(db, {
        kind: 'import',
        author: options.author,
        description: '',
      }).id
      const workers = new Map<string, number>()
      const worker = (id: string): number => {
        let w = workers.get(id)
        if (w === undefined) {
          w = findOrAddWorker(db, id)
          workers.set(id, w)
        }
        return w
      }
      for (const i of found.instructions) {
        putInstruction(db, i.id, i.markdown, changeSet)
        counts.instructions++
      }
      for (const { value } of valid.tutorial) {
        putTutorial(
          db,
          { id: value.tutorial_id, instructionId: value.instruction_id ?? null, spec: value },
          changeSet,
        )
        counts.tutorials++
      }
      for (const { value } of valid.exam) {
        putExam(db, examInput(value), changeSet)
        counts.exams++
      }
      for (const [id, spec] of taskIds) {
        putTask(db, id, spec, changeSet)
        counts.tasks++
      }
      for (const { value } of valid.examAttempt) {
        const completedAt = toSeconds(value.complete_time)
        const shown = new Map<string, string | null>()
        for (const q of value.assignment_payload)
          shown.set(q.question_id, value.response_payload[q.question_id] ?? null)
        const key =
          value._id ?? `${value.exam_id}|${value.worker_id}|${String(value.complete_time ?? '')}`
        const added = addAttempt(
          db,
          {
            examId: value.exam_id,
            workerId: worker(value.worker_id),
            platform: value.worker_platform ?? null,
            source: 'crowdaq',
            sourceKey: `crowdaq:${key}`,
            completedAt,
            // CROWDAQ creates the row when the worker opens the exam.
            startedAt: toSeconds(value.start_time ?? value.create_at),
            deadline: toSeconds(value.deadline),
            sourceOrder: 0,
            answers: shown,
          },
          changeSet,
        )
        if (added) counts.examAttempts++
      }
      if (csvExam) {
        const attempts = new Map<
          string,
          { workerId: string; attempt: number; answers: Map<string, string | null> }
        >()
        for (const { rows } of csvRows) {
          for (const r of rows) {
            const k = `${r.workerId}|${r.attempt}`
            let a = attempts.get(k)
            if (!a) {
              a = { workerId: r.workerId, attempt: r.attempt, answers: new Map() }
              attempts.set(k, a)
            }
            if (r.shown) a.answers.set(r.questionId, r.answer)
          }
        }
        for (const [k, a] of attempts) {
          const added = addAttempt(
            db,
            {
              examId: csvExam,
              workerId: worker(a.workerId),
              platform: null,
              source: 'csv',
              sourceKey: `csv:${csvExam}|${k}`,
              completedAt: null,
              startedAt: null,
              deadline: null,
              sourceOrder: a.attempt,
              answers: a.answers,
            },
            changeSet,
          )
          if (added) counts.examAttempts++
        }
      }
      for (const { value, response } of responses) {
        const added = addTaskAssignment(
          db,
          {
            taskId: value.annotation_task_id,
            workerId: worker(value.worker_id),
            platform: value.worker_platform ?? null,
            startedAt: toSeconds(value.start_time),
            completedAt: toSeconds(value.complete_time),
            response,
          },
          changeSet,
        )
        if (added) counts.taskAssignments++
      }
      describeChangeSet(
        db,
        changeSet,
        `Imported CROWDAQ ${basename(path)}: ${describeCounts(counts)}`,
      )
      return counts
    })
    .immediate()
}

/**
 * The items of one exam in one import are pages of its question set (a desktop export keeps an
 * exam's questions in pages): they become one exam, its questions in page order. A question id
 * on two pages is a problem of the later one.
 */
function mergePages(
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

export function describeCounts(c: CrowdaqImportCounts): string {
  const parts = Object.entries(c)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
  return parts.length > 0 ? parts.join(', ') : 'nothing new'
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
function normaliseResponse(spec: TaskSpec, raw: unknown): Record<string, unknown> {
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

export type { TutorialSpec }
