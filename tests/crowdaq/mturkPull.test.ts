import { describe, expect, it } from 'vitest'
import { gradeExam } from '../../src/main/collections/crowdaq/grade'
import { examAttempts } from '../../src/main/collections/crowdaq/db/attempts'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { runPull } from '../../src/main/mturk/pullRun'
import { htmlFormAnswerXml, questionFormAnswersXml } from '../../standin/answer-xml'
import { UserError } from '../../src/shared/contract/errors'
import { count, useConnections, useProject } from '../mturk/project-helpers'
import { useStandin } from '../mturk/standin-helpers'
import { fixture } from './helpers'

const start = useStandin()
const newProject = useProject()
const connectTo = useConnections()
const author = 'test'
const T0 = Date.UTC(2026, 1, 1, 9)
const MIN = 60_000

/** fx_exam: q1 A, q2 B, q3 C, q4 A; three of the four per attempt; one hour by default. */
function examProject() {
  const project = newProject()
  importCrowdaq(project.db, fixture('exam.json'), { author })
  return project
}

describe('attempts from MTurk qualification HITs', () => {
  it('pulls a qualification HIT’s assignments as exam attempts, keyed by question id', async () => {
    const { standin } = await start()
    // A QuestionForm HIT (selections) and an HTML form that posts the questions it drew.
    const form = standin.state.addHIT({
      Title: 'Quantity qualification (form)',
      HITTypeId: '3TQUALFORM00000000000000000000',
      Question: '<QuestionForm xmlns="x"><Question/></QuestionForm>',
      MaxAssignments: 5,
    })
    const html = standin.state.addHIT({
      Title: 'Quantity qualification (html)',
      HITTypeId: '3TQUALHTML00000000000000000000',
      MaxAssignments: 5,
    })
    // A GLUCOSE HIT on the same account: not part of the selection.
    standin.state.addHIT({ Title: 'GLUCOSE story', MaxAssignments: 1 })
    const selections = (answers: Record<string, string>) =>
      questionFormAnswersXml(Object.entries(answers).map(([id, s]) => ({ id, selections: [s] })))
    standin.state.addAssignment({
      HITId: form.HITId,
      WorkerId: 'AWONE',
      AcceptTime: T0,
      SubmitTime: T0 + 5 * MIN,
      Answer: selections({ q1: 'A', q2: 'B', q3: 'C' }),
    })
    // Its second attempt came first (numbered by completion time), and left a question blank.
    standin.state.addAssignment({
      HITId: html.HITId,
      WorkerId: 'AWONE',
      AcceptTime: T0 - 60 * MIN,
      SubmitTime: T0 - 50 * MIN,
      Answer: htmlFormAnswerXml({ shown: 'q2 q3 q4', q2: 'A', q4: 'A', comment: 'hi' }),
    })
    // Right answers, but 90 minutes on a one-hour exam.
    standin.state.addAssignment({
      HITId: html.HITId,
      WorkerId: 'AWTWO',
      AcceptTime: T0,
      SubmitTime: T0 + 90 * MIN,
      Answer: htmlFormAnswerXml({ shown: 'q1,q2,q4', q1: 'A', q2: 'B', q4: 'A' }),
    })

    const { db } = examProject()
    const ctx = connectTo(standin)
    const selection = { hitTypeIds: [form.HITTypeId, html.HITTypeId], examId: 'fx_exam' }
    const result = await runPull(
      db,
      ctx,
      { mode: 'all', selection },
      { endpoint: ctx.url, author, storeOnThread: false },
    )
    expect(result).toMatchObject({ hits: 2, assignments: 3, new: 3 })
    expect(count(db, 'SELECT count(*) FROM submissions')).toBe(0)

    const byWorker = examAttempts(db, 'fx_exam').map((a) => ({
      workerId: a.workerId,
      startedAt: a.startedAt,
      completedAt: a.completedAt,
      answers: a.answers,
    }))
    expect(byWorker).toEqual(
      expect.arrayContaining([
        {
          workerId: 'AWONE',
          startedAt: T0 / 1000,
          completedAt: T0 / 1000 + 300,
          answers: { q1: 'A', q2: 'B', q3: 'C' },
        },
        {
          workerId: 'AWONE',
          startedAt: T0 / 1000 - 3600,
          completedAt: T0 / 1000 - 3000,
          answers: { q2: 'A', q3: null, q4: 'A' },
        },
      ]),
    )
    const graded = gradeExam(db, 'fx_exam').graded.map((a) => [
      a.workerId,
      a.attempt,
      a.grade,
      a.flags,
    ])
    expect(graded).toEqual([
      ['AWONE', 1, 1 / 3, []],
      ['AWONE', 2, 1, []],
      ['AWTWO', 1, 1, ['over-time']],
    ])
    expect(
      db.prepare('SELECT kind, description FROM change_sets ORDER BY id DESC LIMIT 1').get(),
    ).toEqual({ kind: 'mturk', description: 'Pulled exam fx_exam from MTurk: 3 attempts' })

    // Pulling again adds nothing; a new assignment is added alone.
    const again = await runPull(
      db,
      ctx,
      { mode: 'all', selection },
      { endpoint: ctx.url, author, storeOnThread: false },
    )
    expect(again).toMatchObject({ assignments: 3, new: 0 })
    standin.state.addAssignment({
      HITId: form.HITId,
      WorkerId: 'AWTHREE',
      AcceptTime: T0,
      SubmitTime: T0 + 10 * MIN,
      Answer: selections({ q1: 'B', q4: 'A' }),
    })
    const third = await runPull(
      db,
      ctx,
      { mode: 'new', selection },
      { endpoint: ctx.url, author, storeOnThread: false },
    )
    expect(third).toMatchObject({ new: 1 })
    expect(count(db, 'SELECT count(*) FROM crowdaq_exam_attempts')).toBe(4)
  })

  it('stores attempts the same way on the store thread', async () => {
    const { standin } = await start()
    const hit = standin.state.addHIT({ Title: 'Qualification', MaxAssignments: 3 })
    for (const [i, worker] of ['AWA', 'AWB', 'AWC'].entries()) {
      standin.state.addAssignment({
        HITId: hit.HITId,
        WorkerId: worker,
        AcceptTime: T0 + i * MIN,
        SubmitTime: T0 + (i + 5) * MIN,
        Answer: htmlFormAnswerXml({ shown: 'q1 q2 q3', q1: 'A', q2: 'B', q3: i === 0 ? 'C' : 'A' }),
      })
    }
    const { db } = examProject()
    const ctx = connectTo(standin)
    const result = await runPull(
      db,
      ctx,
      { mode: 'all', selection: { titleContains: 'Qualification', examId: 'fx_exam' } },
      { endpoint: ctx.url, author, storeOnThread: true },
    )
    expect(result).toMatchObject({ new: 3 })
    expect(gradeExam(db, 'fx_exam').graded.map((a) => [a.workerId, a.grade])).toEqual([
      ['AWA', 1],
      ['AWB', 2 / 3],
      ['AWC', 2 / 3],
    ])
  })

  it('refuses an exam the project does not have, before pulling anything', async () => {
    const { standin } = await start()
    const { db } = examProject()
    const ctx = connectTo(standin)
    const pull = runPull(
      db,
      ctx,
      { mode: 'all', selection: { examId: 'nope' } },
      { endpoint: ctx.url, author },
    )
    await expect(pull).rejects.toThrow(UserError)
    await expect(pull).rejects.toThrow(/no exam 'nope'/)
    expect(standin.state.requests).toHaveLength(0)
    expect(count(db, 'SELECT count(*) FROM mturk_pulls')).toBe(0)
  })
})
