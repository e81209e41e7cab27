import { describe, expect, it } from 'vitest'
import {
  examSpec,
  saveQuestionSet,
  tutorialSpec,
} from '../../src/main/collections/crowdaq/authoring'
import { gradeExam } from '../../src/main/collections/crowdaq/grade'
import { previewQuestionSet } from '../../src/main/collections/crowdaq/preview'
import { examQuestions, examRow } from '../../src/main/collections/crowdaq/db/specs'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { count, useProject } from '../mturk/project-helpers'
import { fixture } from './helpers'

const newProject = useProject()
const author = 'test'

const question = (id: string, answer: string, extra: object = {}) => ({
  type: 'multiple-choice',
  question_id: id,
  question: { question_text: `Question ${id}?`, options: { A: 'yes', B: 'no' } },
  answer,
  ...extra,
})

describe('exams and tutorials written in the app', () => {
  it('checks an exam as an import does and saves nothing while anything is wrong', () => {
    const { db } = newProject()
    const result = saveQuestionSet(
      db,
      'exam',
      {
        exam_id: 'my exam',
        passing_grade: 1.5,
        question_set: [question('q1', 'C'), question('q1', 'A')],
      },
      { create: true, author },
    )
    expect(result.id).toBeNull()
    expect(result.problems).toEqual([
      { path: '$.exam_id', message: 'expected an id of letters, digits and _' },
      { path: '$.passing_grade', message: expect.stringMatching(/<=1/) as unknown },
    ])
    const second = saveQuestionSet(
      db,
      'exam',
      { exam_id: 'my_exam', question_set: [question('q1', 'C'), question('q1', 'A')] },
      { create: true, author },
    )
    expect(second.problems).toEqual([
      { path: '$.question_set[0].answer', message: "answer 'C' is not one of the options (A, B)" },
      {
        path: '$.question_set[1].question_id',
        message: "question id 'q1' is used twice (also at question_set[0])",
      },
    ])
    expect(count(db, 'SELECT count(*) FROM crowdaq_exams')).toBe(0)
    expect(count(db, 'SELECT count(*) FROM change_sets')).toBe(0)
  })

  it('creates an exam with its settings, then refuses to create it twice', () => {
    const { db } = newProject()
    const spec = {
      exam_id: 'my_exam',
      num_of_questions: 1,
      passing_grade: 0.5,
      max_attempts: 3,
      time_limit_in_seconds: 900,
      question_set: [question('q1', 'A'), question('q2', 'B')],
    }
    expect(saveQuestionSet(db, 'exam', spec, { create: true, author })).toEqual({
      id: 'my_exam',
      problems: [],
    })
    expect(examRow(db, 'my_exam')?.settings).toMatchObject({
      questionsPerAttempt: 1,
      passingGrade: 0.5,
      attemptsAllowed: 3,
      timeLimitSeconds: 900,
    })
    expect(previewQuestionSet(db, 'exam', 'my_exam').questions).toHaveLength(1)
    expect(examSpec(db, 'my_exam')).toEqual(spec)
    expect(saveQuestionSet(db, 'exam', spec, { create: true, author }).problems).toEqual([
      { path: '$.exam_id', message: "the project has an exam 'my_exam' already" },
    ])
    expect(db.prepare('SELECT kind, description FROM change_sets').all()).toEqual([
      { kind: 'crowdaq', description: 'Wrote exam my_exam in the app' },
    ])
  })

  it('edits an imported exam: contexts kept, a new key re-grades, a question left out is disabled', () => {
    const { db } = newProject()
    for (const f of ['exam.json', 'exam_assignments.json'])
      importCrowdaq(db, fixture(f), { author })
    const before = gradeExam(db, 'fx_exam').graded.map((a) => a.grade)
    const spec = examSpec(db, 'fx_exam')
    expect(spec.question_set[0]?.question.context?.[0]?.type).toBe('html')
    // q2's key becomes A; q4 is left out.
    const edited = {
      ...spec,
      question_set: spec.question_set
        .filter((q) => q.question_id !== 'q4')
        .map((q) => (q.question_id === 'q2' ? { ...q, answer: 'A' } : q)),
    }
    expect(saveQuestionSet(db, 'exam', edited, { create: false, author }).problems).toEqual([])
    expect(examQuestions(db, 'fx_exam').map((q) => [q.questionId, q.answer, q.enabled])).toEqual([
      ['q1', 'A', true],
      ['q2', 'A', true],
      ['q3', 'C', true],
      ['q4', 'A', false],
    ])
    expect(examSpec(db, 'fx_exam').question_set[0]).toEqual(spec.question_set[0])
    const after = gradeExam(db, 'fx_exam').graded.map((a) => a.grade)
    expect(after).not.toEqual(before)
    expect(
      saveQuestionSet(db, 'exam', { ...edited, exam_id: 'other' }, { create: false, author })
        .problems,
    ).toEqual([{ path: '$.exam_id', message: "the project has no exam 'other'" }])
  })

  it('writes a tutorial: every question explains its options', () => {
    const { db } = newProject()
    const missing = saveQuestionSet(
      db,
      'tutorial',
      { tutorial_id: 'tut', question_set: [question('t1', 'A')] },
      { create: true, author },
    )
    expect(missing.problems).toEqual([
      { path: '$.question_set[0].explanation', message: expect.any(String) as unknown },
    ])
    const tutorial = {
      tutorial_id: 'tut',
      question_set: [question('t1', 'A', { explanation: { A: 'Right.', B: 'It is yes.' } })],
    }
    expect(saveQuestionSet(db, 'tutorial', tutorial, { create: true, author }).id).toBe('tut')
    expect(tutorialSpec(db, 'tut')).toEqual(tutorial)
    expect(previewQuestionSet(db, 'tutorial', 'tut').questions[0]?.explanation).toEqual({
      A: 'Right.',
      B: 'It is yes.',
    })
  })
})
