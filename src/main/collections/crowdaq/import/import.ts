import { basename } from 'node:path'
import type { CrowdaqImportCounts } from '../../../../shared/crowdaq/contract'
import type { TaskSpec } from '../../../../shared/crowdaq/spec'
import type { Db } from '../../../db/connection'
import { createChangeSet, describeChangeSet } from '../../../db/queries/changes/sets'
import { addAttempt } from '../db/attempts'
import {
  examIds,
  examQuestions,
  putExam,
  putInstruction,
  putTask,
  putTutorial,
  storedTask,
} from '../db/specs'
import { addTaskAssignment } from '../db/tasks'
import { findOrAddWorker } from '../../../db/queries/workers/ids'
import { noteGrownRow } from '../../../db/queries/team/grownRows'
import { CancelledError } from '../../../jobs/cancel'
import { plural } from '../../../../shared/text'
import { describeCounts } from './counts'
import type { ImportHooks } from '../../../importers/run'
import { type CsvAttemptRow, parseAttemptsCsv } from './attemptsCsv'
import { type FoundItem, findItems } from './read'
import { CrowdaqInputError, type CrowdaqProblem, type JsonPath, formatPath } from './problems'
import { type ItemValue, validateItem } from './validate'
import type { ZipLimits } from '../../../importers/zip'
import {
  type Valid,
  attemptsOfRows,
  examInput,
  mergePages,
  normaliseResponse,
  toSeconds,
} from './items'
import { append } from '../../../../shared/lists'

export interface CrowdaqImportOptions {
  author: string
  /** The exam an attempts CSV belongs to; needed when the project has more than one. */
  examId?: string | undefined
  /** How much a zip may hold once unzipped (`ZIP_LIMITS`; tests lower it). */
  zipLimits?: ZipLimits
}

/**
 * Imports everything found at `path` in one transaction: every problem of every file is reported
 * together (with file, line, column and JSON path) and then nothing is written.
 */
export function importCrowdaq(
  db: Db,
  path: string,
  options: CrowdaqImportOptions,
  hooks: ImportHooks = {},
): CrowdaqImportCounts {
  const steps = itemSteps(hooks)
  steps.begin('Reading files', 0)
  const found = findItems(path, options.zipLimits)
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
  steps.begin(`Checking ${plural(found.items.length, 'item')}`, found.items.length)
  for (const item of found.items) {
    steps.tick()
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
    append(problems, parsed.problems)
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
  const csvAttempts = attemptsOfRows(csvExam ? csvRows.flatMap((c) => c.rows) : [])
  const writes =
    found.instructions.length +
    valid.tutorial.length +
    valid.exam.length +
    taskIds.size +
    valid.examAttempt.length +
    csvAttempts.size +
    responses.length

  return db
    .transaction((): CrowdaqImportCounts => {
      steps.begin(`Writing ${plural(writes, 'item')}`, writes)
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
        steps.tick()
        noteGrownRow(db, changeSet, 'crowdaq_instructions', [i.id])
        putInstruction(db, i.id, i.markdown, changeSet)
        counts.instructions++
      }
      for (const { value } of valid.tutorial) {
        steps.tick()
        noteGrownRow(db, changeSet, 'crowdaq_tutorials', [value.tutorial_id])
        putTutorial(
          db,
          { id: value.tutorial_id, instructionId: value.instruction_id ?? null, spec: value },
          changeSet,
        )
        counts.tutorials++
      }
      for (const { value } of valid.exam) {
        steps.tick()
        // An exam the project holds is rewritten (a team sends it to be updated, not inserted).
        noteGrownRow(db, changeSet, 'crowdaq_exams', [value.exam_id])
        putExam(db, examInput(value), changeSet)
        counts.exams++
      }
      for (const [id, spec] of taskIds) {
        steps.tick()
        noteGrownRow(db, changeSet, 'crowdaq_tasks', [id])
        putTask(db, id, spec, changeSet)
        counts.tasks++
      }
      for (const { value } of valid.examAttempt) {
        steps.tick()
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
        for (const [k, a] of csvAttempts) {
          steps.tick()
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
        steps.tick()
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

/** Items between progress reports and cancel checks. */
const ITEMS_PER_TICK = 200

/**
 * An import's progress in items, step by step (reading, checking, writing), with a cancel check
 * at each report: cancelling while checking writes nothing, while writing rolls back.
 */
function itemSteps(hooks: ImportHooks): { begin(step: string, total: number): void; tick(): void } {
  let done = 0
  let total = 0
  let step = ''
  const stopIfCancelled = (): void => {
    if (hooks.cancelled?.()) throw new CancelledError('Import cancelled; nothing was imported.')
  }
  return {
    begin(next, of) {
      stopIfCancelled()
      step = next
      done = 0
      total = of
      hooks.progress?.({ done: 0, total, unit: 'items', records: 0, file: '', step })
    },
    tick() {
      if (++done % ITEMS_PER_TICK !== 0) return
      stopIfCancelled()
      hooks.progress?.({ done, total, unit: 'items', records: done, file: step })
    },
  }
}
