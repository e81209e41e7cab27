import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { fixture } from './helpers'

const tempDir = useTempDir()

async function project(): Promise<string> {
  const db = join(tempDir(), 'p.winnow')
  for (const f of ['fx_guide.md', 'exam.json', 'exam_assignments.json', 'attempts.csv']) {
    const r = await cli('crowdaq', 'import', fixture(f), '--db', db, '--json')
    expect(r.code, r.stderr).toBe(0)
  }
  return db
}

describe('CROWDAQ exams from the command line', () => {
  it('imports by kind, and a second import adds nothing', async () => {
    const db = join(tempDir(), 'p.winnow')
    const exam = await cli('crowdaq', 'import', fixture('exam.json'), '--db', db, '--json')
    expect(exam.json).toEqual({
      exams: 1,
      tutorials: 0,
      instructions: 0,
      tasks: 0,
      examAttempts: 0,
      taskAssignments: 0,
    })
    const rows = await cli(
      'crowdaq',
      'import',
      fixture('exam_assignments.json'),
      '--db',
      db,
      '--json',
    )
    expect(rows.json).toMatchObject({ examAttempts: 6 })
    const again = await cli(
      'crowdaq',
      'import',
      fixture('exam_assignments.json'),
      '--db',
      db,
      '--json',
    )
    expect(again.json).toMatchObject({ examAttempts: 0 })
    const csv = await cli('crowdaq', 'import', fixture('attempts.csv'), '--db', db, '--json')
    expect(csv.json).toMatchObject({ examAttempts: 1 })
  })

  it('grades: subset shown, unanswered wrong, attempts by completion time, over-limit and after-pass flagged', async () => {
    const db = await project()
    const r = await cli('exam', 'grade', 'fx_exam', '--db', db, '--json')
    expect(r.code, r.stderr).toBe(0)
    const attempts = (r.json as { attempts: unknown[] }).attempts
    expect(attempts).toEqual([
      { workerId: 'AWFOUR', attempt: 1, grade: 2 / 3, band: null, flags: [] },
      { workerId: 'AWONE', attempt: 1, grade: 1, band: 'main task', flags: [] },
      { workerId: 'AWONE', attempt: 2, grade: 2 / 3, band: null, flags: ['after-pass'] },
      { workerId: 'AWTHREE', attempt: 1, grade: 0.75, band: 'warm-up', flags: [] },
      { workerId: 'AWTWO', attempt: 1, grade: 2 / 3, band: null, flags: [] },
      { workerId: 'AWTWO', attempt: 2, grade: 2 / 3, band: null, flags: [] },
      { workerId: 'AWTWO', attempt: 3, grade: 1, band: 'main task', flags: ['over-limit'] },
    ])
  })

  it('reports the figures computed by hand', async () => {
    const db = await project()
    const r = await cli('exam', 'report', 'fx_exam', '--db', db, '--json')
    const report = r.json as {
      grades: Record<string, number>
      questions: {
        questionId: string
        shown: number
        correct: number
        responses: Record<string, number>
      }[]
      workerRows: { workerId: string; attempts: number; band: string | null }[]
    }
    expect(report.grades).toEqual({ '100': 2, '67': 4, '75': 1 })
    expect(
      report.questions.map(({ questionId, shown, correct, responses }) => ({
        questionId,
        shown,
        correct,
        responses,
      })),
    ).toEqual([
      { questionId: 'q1', shown: 6, correct: 6, responses: { A: 6 } },
      { questionId: 'q2', shown: 6, correct: 5, responses: { A: 1, B: 5 } },
      { questionId: 'q3', shown: 6, correct: 5, responses: { C: 5 } },
      { questionId: 'q4', shown: 4, correct: 1, responses: { A: 1, B: 2 } },
    ])
    expect(report.workerRows.map((w) => [w.workerId, w.attempts, w.band])).toEqual([
      ['AWFOUR', 1, null],
      ['AWONE', 2, 'main task'],
      ['AWTHREE', 1, 'warm-up'],
      ['AWTWO', 3, null],
    ])
  })

  it('refuses an unknown exam with a clear message', async () => {
    const db = await project()
    const r = await cli('exam', 'grade', 'nope', '--db', db, '--json')
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/no exam 'nope'/)
  })

  it('keeps the exam tables apart from GLUCOSE submissions', async () => {
    const path = await project()
    const db = openProject(path)
    try {
      expect(db.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(*) FROM crowdaq_exam_attempts').pluck().get()).toBe(7)
    } finally {
      db.close()
    }
  })
})
