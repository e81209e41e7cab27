import type { Band, ExamSettings } from '../../../../shared/crowdaq/grading'
import type { Question } from '../../../../shared/crowdaq/spec'
import type { Db } from '../../../db/connection'
import { all, get, pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'

/**
 * CROWDAQ instructions, tutorials, exams (settings and question pools) and task specs. A row
 * written again keeps the change set that brought it, which a team shares it under.
 */

export function putInstruction(db: Db, id: string, markdown: string, changeSetId: number): void {
  run(
    db,
    sql`INSERT INTO crowdaq_instructions (id, markdown, change_set_id) VALUES (${id}, ${markdown}, ${changeSetId})
        ON CONFLICT (id) DO UPDATE SET markdown = excluded.markdown`,
  )
}

export function putTutorial(
  db: Db,
  t: { id: string; instructionId: string | null; spec: unknown },
  changeSetId: number,
): void {
  run(
    db,
    sql`INSERT INTO crowdaq_tutorials (id, instruction_id, spec, change_set_id)
        VALUES (${t.id}, ${t.instructionId}, ${JSON.stringify(t.spec)}, ${changeSetId})
        ON CONFLICT (id) DO UPDATE SET instruction_id = excluded.instruction_id, spec = excluded.spec`,
  )
}

export interface ExamRow {
  id: string
  instructionId: string | null
  tutorialId: string | null
  settings: ExamSettings
}

/**
 * Adds an exam or replaces its question pool. Settings the file gives replace the project's;
 * settings it leaves out keep what the project has (an edit in the app survives a re-import).
 */
export function putExam(
  db: Db,
  e: {
    id: string
    instructionId: string | null
    tutorialId: string | null
    settings: Partial<ExamSettings>
    defaults: ExamSettings
    questions: readonly Question[]
  },
  changeSetId: number,
): void {
  const known = examRow(db, e.id)
  const s: ExamSettings = { ...(known?.settings ?? e.defaults), ...e.settings }
  run(
    db,
    sql`INSERT INTO crowdaq_exams (id, instruction_id, tutorial_id, questions_per_attempt, passing_grade,
          attempts_allowed, time_limit_seconds, qualification_type_id, bands, change_set_id)
        VALUES (${e.id}, ${e.instructionId}, ${e.tutorialId}, ${s.questionsPerAttempt}, ${s.passingGrade},
          ${s.attemptsAllowed}, ${s.timeLimitSeconds}, ${s.qualificationTypeId}, ${JSON.stringify(s.bands)},
          ${changeSetId})
        ON CONFLICT (id) DO UPDATE SET instruction_id = excluded.instruction_id,
          tutorial_id = excluded.tutorial_id, questions_per_attempt = excluded.questions_per_attempt,
          passing_grade = excluded.passing_grade, attempts_allowed = excluded.attempts_allowed,
          time_limit_seconds = excluded.time_limit_seconds,
          qualification_type_id = excluded.qualification_type_id, bands = excluded.bands`,
  )
  e.questions.forEach((q, position) => {
    run(
      db,
      sql`INSERT INTO crowdaq_questions (exam_id, question_id, position, answer, enabled, spec)
          VALUES (${e.id}, ${q.question_id}, ${position}, ${q.answer}, ${q.disabled ? 0 : 1}, ${JSON.stringify(q)})
          ON CONFLICT (exam_id, question_id) DO UPDATE SET position = excluded.position,
            answer = excluded.answer, enabled = excluded.enabled, spec = excluded.spec`,
    )
  })
}

export function setExamSettings(db: Db, id: string, s: ExamSettings): void {
  run(
    db,
    sql`UPDATE crowdaq_exams SET questions_per_attempt = ${s.questionsPerAttempt},
          passing_grade = ${s.passingGrade}, attempts_allowed = ${s.attemptsAllowed},
          time_limit_seconds = ${s.timeLimitSeconds}, qualification_type_id = ${s.qualificationTypeId},
          bands = ${JSON.stringify(s.bands)}
        WHERE id = ${id}`,
  )
}

interface ExamDbRow {
  id: string
  instructionId: string | null
  tutorialId: string | null
  questionsPerAttempt: number
  passingGrade: number
  attemptsAllowed: number
  timeLimitSeconds: number
  qualificationTypeId: string | null
  bands: string
}

const examColumns = sql`id, instruction_id AS instructionId, tutorial_id AS tutorialId,
  questions_per_attempt AS questionsPerAttempt, passing_grade AS passingGrade,
  attempts_allowed AS attemptsAllowed, time_limit_seconds AS timeLimitSeconds,
  qualification_type_id AS qualificationTypeId, bands`

function toExam(r: ExamDbRow): ExamRow {
  return {
    id: r.id,
    instructionId: r.instructionId,
    tutorialId: r.tutorialId,
    settings: {
      questionsPerAttempt: r.questionsPerAttempt,
      passingGrade: r.passingGrade,
      attemptsAllowed: r.attemptsAllowed,
      timeLimitSeconds: r.timeLimitSeconds,
      qualificationTypeId: r.qualificationTypeId,
      bands: JSON.parse(r.bands) as Band[],
    },
  }
}

export function examRow(db: Db, id: string): ExamRow | undefined {
  const r = get<ExamDbRow>(db, sql`SELECT ${examColumns} FROM crowdaq_exams WHERE id = ${id}`)
  return r && toExam(r)
}

export function examRows(
  db: Db,
): (ExamRow & { questions: number; attempts: number; workers: number })[] {
  return all<ExamDbRow & { questions: number; attempts: number; workers: number }>(
    db,
    sql`SELECT ${examColumns},
          (SELECT count(*) FROM crowdaq_questions q WHERE q.exam_id = e.id) AS questions,
          (SELECT count(*) FROM crowdaq_exam_attempts a WHERE a.exam_id = e.id) AS attempts,
          (SELECT count(DISTINCT worker_id) FROM crowdaq_exam_attempts a WHERE a.exam_id = e.id) AS workers
        FROM crowdaq_exams e ORDER BY id`,
  ).map((r) => ({ ...toExam(r), questions: r.questions, attempts: r.attempts, workers: r.workers }))
}

export interface QuestionRow {
  questionId: string
  answer: string
  enabled: boolean
  spec: Question
}

export function examQuestions(db: Db, examId: string): QuestionRow[] {
  return all<{ questionId: string; answer: string; enabled: number; spec: string }>(
    db,
    sql`SELECT question_id AS questionId, answer, enabled, spec FROM crowdaq_questions
        WHERE exam_id = ${examId} ORDER BY position`,
  ).map((r) => ({
    questionId: r.questionId,
    answer: r.answer,
    enabled: r.enabled === 1,
    spec: JSON.parse(r.spec) as Question,
  }))
}

export function putTask(db: Db, id: string, spec: unknown, changeSetId: number): void {
  run(
    db,
    sql`INSERT INTO crowdaq_tasks (id, spec, change_set_id) VALUES (${id}, ${JSON.stringify(spec)}, ${changeSetId})
        ON CONFLICT (id) DO UPDATE SET spec = excluded.spec`,
  )
}

export function specText(
  db: Db,
  kind: 'instruction' | 'tutorial' | 'task',
  id: string,
): string | undefined {
  switch (kind) {
    case 'instruction':
      return pluck<string>(db, sql`SELECT markdown FROM crowdaq_instructions WHERE id = ${id}`)
    case 'tutorial':
      return pluck<string>(db, sql`SELECT spec FROM crowdaq_tutorials WHERE id = ${id}`)
    case 'task':
      return pluck<string>(db, sql`SELECT spec FROM crowdaq_tasks WHERE id = ${id}`)
  }
}

export function resourceLists(db: Db): {
  instructions: string[]
  tutorials: string[]
  tasks: string[]
} {
  const ids = (table: 'crowdaq_instructions' | 'crowdaq_tutorials' | 'crowdaq_tasks'): string[] =>
    all<{ id: string }>(db, sql`SELECT id FROM ${sql.raw(table)} ORDER BY id LIMIT 1000`).map(
      (r) => r.id,
    )
  return {
    instructions: ids('crowdaq_instructions'),
    tutorials: ids('crowdaq_tutorials'),
    tasks: ids('crowdaq_tasks'),
  }
}

export function examIds(db: Db): string[] {
  return all<{ id: string }>(db, sql`SELECT id FROM crowdaq_exams ORDER BY id`).map((r) => r.id)
}

export function storedTask(db: Db, id: string): unknown {
  const text = pluck<string>(db, sql`SELECT spec FROM crowdaq_tasks WHERE id = ${id}`)
  return text === undefined ? undefined : (JSON.parse(text) as unknown)
}

export function setQuestionEnabled(
  db: Db,
  examId: string,
  questionId: string,
  enabled: boolean,
): boolean {
  return (
    run(
      db,
      sql`UPDATE crowdaq_questions SET enabled = ${enabled} WHERE exam_id = ${examId} AND question_id = ${questionId}`,
    ).changes > 0
  )
}
