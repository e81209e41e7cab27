import { z } from 'zod'
import type { ExamReportCore } from './examReport'
import type { AttemptFlag, ExamSettings } from './grading'
import type { SafeNode } from './safeNodes'
import type { ExamSpec, Group, TutorialSpec } from './spec'
import { call } from '../contract/define'
import { fileRefSchema } from '../contract/imports'
import type { ActionOutcome } from '../contract/mturk'

/** Calls and types of the CROWDAQ collection: exams, tutorials, instructions, tasks. */

/** What a CROWDAQ import counts, by kind; a second import of the same files adds no rows. */
export interface CrowdaqImportCounts {
  exams: number
  tutorials: number
  instructions: number
  tasks: number
  examAttempts: number
  taskAssignments: number
}

export interface ExamSummary {
  id: string
  instructionId: string | null
  tutorialId: string | null
  settings: ExamSettings
  questions: number
  attempts: number
  workers: number
}

export interface CrowdaqOverview {
  exams: ExamSummary[]
  instructions: string[]
  tutorials: string[]
  tasks: string[]
  /** Task assignments (responses) in the project. */
  taskResponses: number
}

/** A context as the page shows it: HTML already sanitised in main; media only as its address. */
export interface PreviewContext {
  type: 'text' | 'html' | 'image' | 'audio' | 'video'
  id: string | null
  label: string | null
  text: string | null
  /** An HTML context, sanitised in main, as a tree of allowed elements. */
  html: SafeNode[] | null
  src: string | null
  highlight: { start: number; end: number }[]
}

export interface PreviewQuestion {
  questionId: string
  text: string
  options: { key: string; label: string }[]
  contexts: PreviewContext[]
  answer: string
  explanation: Record<string, string> | null
  enabled: boolean
}

export interface QuestionSetPreview {
  kind: 'exam' | 'tutorial'
  id: string
  /** The instruction, rendered from Markdown and sanitised; null when there is none. */
  instruction: SafeNode[] | null
  /** Exam: one attempt's random subset; tutorial: every question. */
  questions: PreviewQuestion[]
  poolSize: number
  settings: ExamSettings | null
}

export interface TaskPreview {
  id: string
  contexts: PreviewContext[]
  groups: Group[]
}

export interface GradedAttemptRow {
  workerId: string
  attempt: number
  grade: number
  band: string | null
  flags: AttemptFlag[]
  shown: number
  correct: number
  /** Epoch seconds. */
  completedAt: number | null
  /** Seconds from start to completion; null when the source does not carry both. */
  durationSeconds: number | null
}

export interface WorkerExamRow {
  workerId: string
  attempts: number
  grades: number[]
  /** Each attempt's flags, in the order of `grades`. */
  flags: AttemptFlag[][]
  /** The standing attempt's grade and band (the last attempt not flagged). */
  grade: number | null
  band: string | null
  /** Share of the worker's main-task annotations per effective rating ('unrated' too). */
  quality: Record<string, number>
  annotations: number
}

export interface ExamReport extends ExamReportCore {
  examId: string
  attempts: number
  /**
   * Attempts whose duration the time limit cannot be checked against: no start or deadline, or
   * no completion time (an attempts CSV carries no times).
   */
  untimed: number
  workers: number
  workerRows: WorkerExamRow[]
}

/** One qualification an exam's bands call for: a worker, a type, a value. */
export interface PlannedQualification {
  workerId: string
  band: string
  grade: number
  qualificationTypeId: string
  value: number
  /** The project's records show this exact qualification sent already. */
  alreadySent: boolean
}

export interface QualifyResult {
  dryRun: boolean
  planned: PlannedQualification[]
  /** Requests sent now (0 on a dry run). */
  sent: number
  /** Already sent before, according to the project's records: not sent again. */
  skipped: number
  failed: number
  outcomes: ActionOutcome[]
}

export interface CollectorAgreement {
  /** `group.collector`. */
  key: string
  type: 'multiple-choice' | 'multi-label'
  /** Tasks with at least two answers. */
  tasks: number
  /** Mean over those tasks of the share of workers choosing the most common value. */
  majorityShare: number | null
  /** Tasks where workers did not all agree, worst first. */
  disagreements: { taskId: string; share: number; values: Record<string, number> }[]
}

export interface TaskResponseView {
  taskId: string
  workerId: string
  /** Epoch seconds. */
  completedAt: number | null
  /** The displayed collectors' values as CROWDAQ recorded them. */
  response: Record<string, unknown>
  /** Per `group.collector` the value in words; workers' text is text, never HTML. */
  cells: Record<string, { text: string; disputed: boolean }>
}

/** A task whose responses are listed, with what the review shows of it. */
export interface ReviewedTask {
  id: string
  /** The task's contexts as a worker saw them (HTML sanitised in main). */
  contexts: PreviewContext[]
  /** The collectors its listed responses filled, in the order of the spec. */
  columns: { key: string; label: string }[]
  /** The lowest majority share of its multiple-choice and multi-label collectors; null: none. */
  lowestShare: number | null
  /** Its responses in the project (the list may show fewer). */
  responses: number
}

export interface TaskReview {
  agreement: CollectorAgreement[]
  /** Tasks with disagreements first (lowest share), then by id; their responses in that order. */
  tasks: ReviewedTask[]
  responses: TaskResponseView[]
  /** Responses in the project (of the task asked for). */
  total: number
}

/** A problem of an exam or tutorial written in the app, at its JSON path (`$.question_set[2].answer`). */
export interface AuthoringProblem {
  path: string
  message: string
}

/** Saved (`id`) or, with problems, nothing saved (`id` null). */
export interface SaveQuestionSetResult {
  id: string | null
  problems: AuthoringProblem[]
}

export type { ExamSpec, TutorialSpec }

const id = z
  .string()
  .regex(/^[a-zA-Z0-9_]+$/, 'expected an id of letters, digits and _')
  .max(200)
const qualificationType = z.string().regex(/^[A-Z0-9]{1,64}$/, 'expected an MTurk id (A–Z, 0–9)')

const bandSchema = z.object({
  name: z.string().trim().min(1).max(100),
  minGrade: z.number().min(0).max(1),
  qualificationTypeId: qualificationType.nullable(),
  value: z.number().int().min(0).max(2147483647).nullable(),
})

const examSettingsSchema = z.object({
  questionsPerAttempt: z.number().int().min(0).max(10_000),
  passingGrade: z.number().min(0).max(1),
  attemptsAllowed: z.number().int().min(1).max(1000),
  timeLimitSeconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600),
  qualificationTypeId: qualificationType.nullable(),
  bands: z.array(bandSchema).max(20),
})

export const crowdaqCalls = {
  'crowdaq.overview': call(z.object({})).returns<CrowdaqOverview>(),
  /**
   * Imports a file, an array, a zip or an attempts CSV as a job (progress in items, cancel): all
   * of it or, on any problem, nothing. The job's result is the counts.
   */
  'crowdaq.import': call(z.object({ file: fileRefSchema, examId: id.optional() })).returns<{
    jobId: string
  }>(),
  /** An exam as a worker would see one attempt (a fresh random subset each call), or a tutorial. */
  'crowdaq.previewQuestions': call(
    z.object({ kind: z.enum(['exam', 'tutorial']), id }),
  ).returns<QuestionSetPreview>(),
  'crowdaq.previewTask': call(z.object({ id: z.string().min(1).max(200) })).returns<TaskPreview>(),
  'crowdaq.saveSettings': call(
    z.object({ examId: id, settings: examSettingsSchema }),
  ).returns<ExamSummary>(),
  'crowdaq.grade': call(z.object({ examId: id })).returns<GradedAttemptRow[]>(),
  'crowdaq.report': call(z.object({ examId: id })).returns<ExamReport>(),
  /** What applying the bands would send; nothing is sent. */
  'crowdaq.planQualifications': call(z.object({ examId: id })).returns<QualifyResult>(),
  /**
   * Applies the bands through the worker actions as a job (progress in workers, a cancel that
   * stops between groups); the job's result is the QualifyResult.
   */
  'crowdaq.qualify': call(z.object({ examId: id })).returns<{ jobId: string }>(),
  /** An exam or tutorial as the CROWDAQ JSON it would be imported from, for editing. */
  'crowdaq.questionSetSpec': call(z.object({ kind: z.enum(['exam', 'tutorial']), id })).returns<
    ExamSpec | TutorialSpec
  >(),
  /**
   * Saves an exam or tutorial written in the app after the checks an import makes; `create`
   * refuses an id the project has. Problems come back with their JSON paths; nothing is saved then.
   */
  'crowdaq.saveQuestionSet': call(
    z.object({ kind: z.enum(['exam', 'tutorial']), spec: z.unknown(), create: z.boolean() }),
  ).returns<SaveQuestionSetResult>(),
  'crowdaq.taskReview': call(
    z.object({
      taskId: z.string().min(1).max(200).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
  ).returns<TaskReview>(),
}

export const crowdaqEvents = {}
