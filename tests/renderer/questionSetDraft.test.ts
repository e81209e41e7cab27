import { describe, expect, it } from 'vitest'
import {
  describePath,
  draftOf,
  newDraft,
  newQuestion,
  nextKey,
  specOf,
} from '../../src/renderer/src/features/crowdaq/questionSetDraft'
import type { ExamSpec, TutorialSpec } from '../../src/shared/crowdaq/spec'

const exam: ExamSpec = {
  $schema: 'https://schema.crowdaq.com/exam.json',
  exam_id: 'fx_exam',
  instruction_id: 'fx_guide',
  qualification_id: 'QUALTYPE1',
  num_of_questions: 3,
  max_attempts: 2,
  passing_grade: 1,
  time_limit_in_seconds: 3600,
  question_set: [
    {
      type: 'multiple-choice',
      question_id: 'q1',
      question: {
        context: [{ type: 'html', label: 'Passage', html: '<p>About <b>40 %</b></p>' }],
        question_text: 'Which span is the quantity?',
        options: { A: '40 %', B: '40' },
      },
      answer: 'A',
    },
    {
      type: 'multiple-choice',
      question_id: 'q2',
      question: { question_text: 'And this?', options: { A: 'x', B: 'y' } },
      answer: 'B',
      disabled: true,
    },
  ],
}

describe('an exam or tutorial in its form', () => {
  it('gives back the JSON it was read from, HTML contexts and unknown fields included', () => {
    expect(specOf(draftOf('exam', exam))).toEqual(exam)
  })

  it('edits a text passage, drops its stale highlights, and keeps the key of a renamed answer', () => {
    const tutorial: TutorialSpec = {
      tutorial_id: 'tut',
      question_set: [
        {
          type: 'multiple-choice',
          question_id: 't1',
          question: {
            context: [
              {
                type: 'text',
                id: 'p',
                label: 'Text',
                text: 'Old',
                highlight: [{ start: 0, end: 3 }],
              },
            ],
            question_text: 'Which?',
            options: { A: 'one', B: 'two' },
          },
          answer: 'A',
          explanation: { A: 'yes', B: 'no' },
        },
      ],
    }
    const draft = draftOf('tutorial', tutorial)
    expect(draft.questions[0]?.passage).toBe('Old')
    const q = draft.questions[0]
    if (!q) throw new Error('no question')
    const edited = { ...draft, questions: [{ ...q, passage: 'New text' }] }
    expect(specOf(edited)).toEqual({
      tutorial_id: 'tut',
      question_set: [
        {
          ...tutorial.question_set[0],
          question: {
            context: [{ type: 'text', id: 'p', label: 'Text', text: 'New text' }],
            question_text: 'Which?',
            options: { A: 'one', B: 'two' },
          },
        },
      ],
    })
  })

  it('starts a new exam with one blank question and picks free ids and keys', () => {
    const draft = newDraft('exam')
    expect(
      draft.questions.map((q) => [q.questionId, q.options.map((o) => o.key), q.answer]),
    ).toEqual([['q1', ['A', 'B'], 'A']])
    expect(newQuestion(draft).questionId).toBe('q2')
    expect(nextKey(draft.questions[0]?.options ?? [])).toBe('C')
    expect(specOf({ ...draft, id: 'x' })).toMatchObject({
      exam_id: 'x',
      num_of_questions: 0,
      passing_grade: 1,
      question_set: [{ question_id: 'q1', answer: 'A', question: { options: { A: '', B: '' } } }],
    })
    expect(describePath('$.question_set[0].answer', draft)).toBe('Question 1 (q1): answer')
    expect(describePath('$.exam_id', draft)).toBe('exam_id')
  })
})
