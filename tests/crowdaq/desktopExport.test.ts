import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { previewQuestionSet } from '../../src/main/collections/crowdaq/preview'
import { taskReview } from '../../src/main/collections/crowdaq/tasks'
import { openProject } from '../../src/main/db/connection'
import { examQuestions, examRow, resourceLists } from '../../src/main/collections/crowdaq/db/specs'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { EXPORT_COUNTS, writeDesktopExport } from './desktopExport'

const tempDir = useTempDir()

describe('a CROWDAQ desktop-client export folder', () => {
  it('imports end to end: exam settings and paged questions, attempts, tasks, responses, instruction, tutorial', async () => {
    const dir = tempDir()
    const owner = writeDesktopExport(dir)
    const db = join(dir, 'p.winnow')
    const r = await cli('crowdaq', 'import', owner, '--db', db, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(r.json).toEqual(EXPORT_COUNTS)

    const p = openProject(db)
    try {
      // The exam's settings come from examConfig.json; its questions from both pages, in order,
      // the one the export marks disabled kept but disabled.
      expect(examRow(p, 'qty_exam')).toMatchObject({
        instructionId: 'qty_guide',
        tutorialId: 'qty_tutorial',
        settings: {
          questionsPerAttempt: 2,
          passingGrade: 0.5,
          attemptsAllowed: 2,
          timeLimitSeconds: 600,
          qualificationTypeId: null,
        },
      })
      expect(examQuestions(p, 'qty_exam').map((q) => [q.questionId, q.enabled])).toEqual([
        ['q1', true],
        ['q2', true],
        ['q3', false],
      ])
      expect(resourceLists(p)).toEqual({
        instructions: ['qty_guide'],
        tutorials: ['qty_tutorial'],
        tasks: ['r1', 'r2'],
      })
      const preview = previewQuestionSet(p, 'exam', 'qty_exam')
      expect(preview.questions.map((q) => q.questionId).sort()).toEqual(['q1', 'q2'])
      expect(JSON.stringify(preview.instruction)).toContain('Quantities')
      expect(previewQuestionSet(p, 'tutorial', 'qty_tutorial').questions).toHaveLength(1)

      const review = taskReview(p, undefined)
      expect(review.agreement).toEqual([
        {
          key: 'sentiment.polarity',
          type: 'multiple-choice',
          tasks: 2,
          majorityShare: 0.75,
          disagreements: [{ taskId: 'r2', share: 0.5, values: { A: 1, B: 1 } }],
        },
      ])
      expect(review.tasks.map((t) => t.id)).toEqual(['r2', 'r1'])
    } finally {
      p.close()
    }

    const graded = await cli('exam', 'grade', 'qty_exam', '--db', db, '--json')
    expect(graded.json).toEqual({
      attempts: [
        { workerId: 'AWANN', attempt: 1, grade: 1, band: 'main task', flags: [] },
        { workerId: 'AWBEN', attempt: 1, grade: 0, band: null, flags: [] },
        { workerId: 'AWBEN', attempt: 2, grade: 1, band: 'main task', flags: ['over-time'] },
      ],
    })

    const again = await cli('crowdaq', 'import', owner, '--db', db, '--json')
    expect(again.json).toMatchObject({ examAttempts: 0, taskAssignments: 0 })
  })

  it('reads a tutorial row without its sharable file', async () => {
    const dir = tempDir()
    const owner = writeDesktopExport(dir)
    rmSync(join(owner, 'tutorial', 'qty_tutorial', 'tutorial-sharable.json'))
    const db = join(dir, 'p.winnow')
    const r = await cli('crowdaq', 'import', join(owner, 'tutorial'), '--db', db, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(r.json).toMatchObject({ tutorials: 1 })
  })

  it('imports one exam folder of it on its own', async () => {
    const dir = tempDir()
    const owner = writeDesktopExport(dir)
    const db = join(dir, 'p.winnow')
    const r = await cli('crowdaq', 'import', join(owner, 'exam', 'qty_exam'), '--db', db, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(r.json).toMatchObject({ exams: 1, examAttempts: 3, tasks: 0 })
  })

  it('names the page file, line and JSON path of a bad question, and imports nothing', async () => {
    const dir = tempDir()
    const owner = writeDesktopExport(dir)
    const page = join(owner, 'exam', 'qty_exam', 'questions', 'questions-2-of-2.json')
    const db = join(dir, 'p.winnow')
    const importWith = async (questionId: string, answer: string) => {
      const question = {
        type: 'multiple-choice',
        question_id: questionId,
        question: { question_text: 'Again?', options: { A: 'yes' } },
        answer,
      }
      writeFileSync(page, JSON.stringify({ question_set: [question], meta: [] }, null, 2))
      const r = await cli('crowdaq', 'import', owner, '--db', db)
      expect(r.code).toBe(1)
      return r.stderr
    }
    const at = join('exam', 'qty_exam', 'questions', 'questions-2-of-2.json')
    expect(await importWith('q9', 'Z')).toContain(
      `${at}:12:7: $.question_set[0].answer: answer 'Z' is not one of the options (A)`,
    )
    expect(await importWith('q1', 'A')).toContain(
      `${at}:5:7: $.question_set[0].question_id: question id 'q1' is used twice (also in ${join('exam', 'qty_exam', 'questions', 'questions-1-of-2.json')})`,
    )
    const p = openProject(db)
    try {
      expect(p.prepare('SELECT count(*) FROM crowdaq_exams').pluck().get()).toBe(0)
      expect(p.prepare('SELECT count(*) FROM crowdaq_tasks').pluck().get()).toBe(0)
    } finally {
      p.close()
    }
  })
})
