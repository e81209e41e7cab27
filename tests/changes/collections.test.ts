import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { saveExamSettings, saveQuestionSet } from '../../src/main/collections/crowdaq/authoring'
import { examRow } from '../../src/main/collections/crowdaq/db/specs'
import { importProtoqaFiles } from '../../src/main/collections/protoqa/import/run'
import { saveClustering } from '../../src/main/collections/protoqa/clusterings'
import { history } from '../../src/main/ratings/history'
import { revertChangeSet, undoState } from '../../src/main/ratings/revert'
import { useProject } from '../mturk/project-helpers'
import { changeSetsAfter, lastChangeSetId } from './record'

const newProject = useProject()
const answers = join(import.meta.dirname, '../fixtures/protoqa/answers.csv')

const exam = {
  exam_id: 'warmup',
  num_of_questions: 1,
  passing_grade: 0.5,
  max_attempts: 2,
  time_limit_in_seconds: 600,
  question_set: [
    {
      type: 'multiple-choice',
      question_id: 'q1',
      question: { question_text: 'Is it?', options: { A: 'yes', B: 'no' } },
      answer: 'A',
    },
  ],
}

describe('CROWDAQ and ProtoQA edits are change sets', () => {
  it('an exam written in the app carries its spec; its settings edited are a change set of their own', () => {
    const { db } = newProject()
    const before = lastChangeSetId(db)
    expect(saveQuestionSet(db, 'exam', exam, { create: true, author: 'eva' }).problems).toEqual([])
    const settings = { ...(examRow(db, 'warmup')?.settings ?? fail()), passingGrade: 0.8 }
    saveExamSettings(db, 'warmup', settings, 'eva')
    // The same settings again record nothing.
    saveExamSettings(db, 'warmup', settings, 'eva')
    const [wrote, edited] = changeSetsAfter(db, before)
    expect(wrote).toMatchObject({
      kind: 'crowdaq',
      author: 'eva',
      description: 'Wrote exam warmup in the app',
      entries: [
        {
          subject: 'crowdaq.question-set',
          key: { kind: 'exam', id: 'warmup' },
          value: expect.objectContaining({ exam_id: 'warmup', passing_grade: 0.5 }) as unknown,
        },
      ],
    })
    expect(edited).toMatchObject({
      kind: 'crowdaq',
      author: 'eva',
      description: 'Settings of exam warmup',
      entries: [{ subject: 'crowdaq.exam-settings', key: { exam: 'warmup' }, value: settings }],
    })
    expect(changeSetsAfter(db, before)).toHaveLength(2)
    expect(examRow(db, 'warmup')?.settings.passingGrade).toBe(0.8)
    // A new version is saved again instead: History offers no revert, and a revert is refused.
    expect(history(db).map((c) => c.revertable)).toEqual([false, false])
    expect(() => revertChangeSet(db, edited?.id ?? 0, { author: 'eva' })).toThrow(
      /cannot be reverted: save the earlier version again instead/,
    )
    expect(examRow(db, 'warmup')?.settings.passingGrade).toBe(0.8)
    expect(undoState(db).undo).toBeNull()
  })

  it('a ProtoQA clustering and the final one decided are ProtoQA change sets with their clustering rows', () => {
    const { db } = newProject()
    importProtoqaFiles(db, [{ path: answers }])
    const before = lastChangeSetId(db)
    const draft = {
      clusters: [{ name: 'sand', answers: ['sand', 'shells'] }],
      invalid: ['water, lots'],
      fixes: {},
    }
    saveClustering(db, {
      question: 't2q1',
      role: 'reviewer',
      reviewer: 'ann',
      author: 'eva',
      draft,
    })
    saveClustering(db, { question: 't2q1', role: 'final', reviewer: 'bob', author: 'eva', draft })
    const sets = changeSetsAfter(db, before)
    expect(sets.map((s) => [s.kind, s.author, s.description])).toEqual([
      ['protoqa', 'eva', 'Clustering of t2q1 by ann'],
      ['protoqa', 'eva', 'Final clustering of t2q1, decided by bob'],
    ])
    expect(
      db
        .prepare(
          'SELECT role, author, change_set_id FROM protoqa_clusterings WHERE change_set_id > ?',
        )
        .all(before),
    ).toEqual([
      { role: 'reviewer', author: 'ann', change_set_id: sets[0]?.id },
      { role: 'final', author: 'bob', change_set_id: sets[1]?.id },
    ])
    expect(history(db, { limit: 2 }).map((c) => [c.kind, c.revertable])).toEqual([
      ['protoqa', false],
      ['protoqa', false],
    ])
  })
})

function fail(): never {
  throw new Error('no exam')
}
