import type { AuthoringProblem, SaveQuestionSetResult } from '../../../shared/crowdaq/contract'
import type { ExamSettings } from '../../../shared/crowdaq/grading'
import type { ExamSpec, TutorialSpec } from '../../../shared/crowdaq/spec'
import { canonicalJson, recordChange } from '../../changes/entries'
import type { Db } from '../../db/connection'
import { examQuestions, examRow, setExamSettings, specText } from './db/specs'
import { formatPath } from './import/problems'
import { validateItem } from './import/validate'
import { notFound } from './preview'
import { writeQuestionSet } from './questionSets'

/**
 * Exams and tutorials written in the app: read back as the CROWDAQ JSON they would be imported
 * from, and saved after the checks an import makes, so an authored exam and an imported one are
 * alike in every way. A saved question is never deleted: attempts may have shown it, so leaving
 * it out of an exam disables it.
 */

/** An exam as CROWDAQ exam JSON: its settings and every question, disabled ones marked. */
export function examSpec(db: Db, id: string): ExamSpec {
  const exam = examRow(db, id)
  if (!exam) throw notFound('exam', id)
  const s = exam.settings
  return {
    exam_id: id,
    ...(exam.instructionId ? { instruction_id: exam.instructionId } : {}),
    ...(exam.tutorialId ? { tutorial_id: exam.tutorialId } : {}),
    num_of_questions: s.questionsPerAttempt,
    max_attempts: s.attemptsAllowed,
    passing_grade: s.passingGrade,
    time_limit_in_seconds: s.timeLimitSeconds,
    ...(s.qualificationTypeId ? { qualification_id: s.qualificationTypeId } : {}),
    question_set: examQuestions(db, id).map((q) => {
      const { disabled: _was, ...question } = q.spec
      return q.enabled ? question : { ...question, disabled: true }
    }),
  }
}

export function tutorialSpec(db: Db, id: string): TutorialSpec {
  const text = specText(db, 'tutorial', id)
  if (text === undefined) throw notFound('tutorial', id)
  return JSON.parse(text) as TutorialSpec
}

/**
 * Saves an exam or tutorial from the app's form: all of it, or nothing with every problem named by
 * its JSON path. `create` refuses an id the project has; otherwise the id must be there.
 */
export function saveQuestionSet(
  db: Db,
  kind: 'exam' | 'tutorial',
  value: unknown,
  options: { create: boolean; author: string },
): SaveQuestionSetResult {
  const checked = validateItem(kind, value)
  const problems: AuthoringProblem[] = checked.problems.map((p) => ({
    path: formatPath(p.path),
    message: p.message,
  }))
  if (checked.value === null) return { id: null, problems }
  const spec = checked.value
  const id = 'exam_id' in spec ? spec.exam_id : spec.tutorial_id
  const idField = kind === 'exam' ? '$.exam_id' : '$.tutorial_id'
  const exists =
    kind === 'exam' ? examRow(db, id) !== undefined : specText(db, kind, id) !== undefined
  if (options.create && exists) {
    const message = `the project has ${kind === 'exam' ? 'an' : 'a'} ${kind} '${id}' already`
    return { id: null, problems: [{ path: idField, message }] }
  }
  if (!options.create && !exists) {
    return {
      id: null,
      problems: [{ path: idField, message: `the project has no ${kind} '${id}'` }],
    }
  }
  db.transaction(() => {
    // The spec as saved travels with the change set: the tables keep only the latest.
    const changeSet = recordChange(
      db,
      {
        kind: 'crowdaq',
        author: options.author,
        description: `${options.create ? 'Wrote' : 'Edited'} ${kind} ${id} in the app`,
      },
      [{ subject: 'crowdaq.question-set', key: { kind, id }, value: spec }],
    ).id
    writeQuestionSet(db, spec, changeSet)
  }).immediate()
  return { id, problems: [] }
}

/** An exam's settings from its panel, as one change set (none when they are as they were). */
export function saveExamSettings(
  db: Db,
  examId: string,
  settings: ExamSettings,
  author: string,
): void {
  db.transaction(() => {
    const known = examRow(db, examId)
    if (!known) throw notFound('exam', examId)
    if (canonicalJson(known.settings) === canonicalJson(settings)) return
    recordChange(db, { kind: 'crowdaq', author, description: `Settings of exam ${examId}` }, [
      { subject: 'crowdaq.exam-settings', key: { exam: examId }, value: settings },
    ])
    setExamSettings(db, examId, settings)
  }).immediate()
}
