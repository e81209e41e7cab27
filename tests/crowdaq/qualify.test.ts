import { describe, expect, it } from 'vitest'
import { applyBands, bandsDryRun } from '../../src/main/collections/crowdaq/qualify'
import { taskReview } from '../../src/main/collections/crowdaq/tasks'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import type { ActionContext } from '../../src/main/mturk/workerActions'
import { count, useConnections, useProject } from '../mturk/project-helpers'
import { useStandin } from '../mturk/standin-helpers'
import { examWithBands, fixture } from './helpers'

const start = useStandin()
const newProject = useProject()
const connectTo = useConnections()
const author = 'test'

describe('qualifying workers by exam band', () => {
  it('sends round(grade × 100) or the band value once; a second run sends nothing new', async () => {
    const { standin } = await start()
    const main = standin.state.addQualificationType({ Name: 'Main task' }).QualificationTypeId
    const warm = standin.state.addQualificationType({ Name: 'Warm-up' }).QualificationTypeId
    const { db } = newProject()
    examWithBands(db, [
      { name: 'main task', minGrade: 1, qualificationTypeId: main, value: null },
      { name: 'warm-up', minGrade: 0.7, qualificationTypeId: warm, value: 1 },
    ])
    const dry = bandsDryRun(db, 'fx_exam')
    expect(dry.planned.map((p) => [p.workerId, p.band, p.value, p.alreadySent])).toEqual([
      ['AWONE', 'main task', 100, false],
      ['AWTHREE', 'warm-up', 1, false],
    ])
    expect(
      standin.state.requests.some((r) => r.operation === 'AssociateQualificationWithWorker'),
    ).toBe(false)

    const ctx = connectTo(standin)
    const ac: ActionContext = { db, ctx, endpoint: ctx.url, projectId: 'p-test', author }
    const changeSets = count(db, 'SELECT count(*) FROM change_sets')
    const first = await applyBands(ac, 'fx_exam')
    expect(first).toMatchObject({ sent: 2, skipped: 0, failed: 0 })
    // Each batch sent (one per band's type and value) is an MTurk change set, which a team's
    // other replicas record as sent, so applying the bands there sends nothing again.
    expect(count(db, "SELECT count(*) FROM change_sets WHERE kind = 'mturk'")).toBe(2)
    expect(count(db, 'SELECT count(*) FROM change_sets')).toBe(changeSets + 2)
    expect(standin.state.qualification(main, 'AWONE')?.IntegerValue).toBe(100)
    expect(standin.state.qualification(warm, 'AWTHREE')?.IntegerValue).toBe(1)
    expect(standin.state.qualification(main, 'AWTWO')).toBeUndefined()
    expect(count(db, "SELECT count(*) FROM worker_actions WHERE action = 'qualify'")).toBe(2)

    const sentBefore = standin.state.requests.length
    const second = await applyBands(ac, 'fx_exam')
    expect(second).toMatchObject({ sent: 0, skipped: 2 })
    expect(standin.state.requests.length).toBe(sentBefore)
    expect(count(db, "SELECT count(*) FROM worker_actions WHERE action = 'qualify'")).toBe(2)
    expect(count(db, 'SELECT count(*) FROM change_sets')).toBe(changeSets + 2)
  })
})

describe('task responses for review', () => {
  it('imports responses, drops hidden collectors of old responses, and lists disagreements first', () => {
    const { db } = newProject()
    importCrowdaq(db, fixture('task.json'), { author })
    expect(importCrowdaq(db, fixture('task_assignments.json'), { author })).toMatchObject({
      taskAssignments: 5,
    })
    const review = taskReview(db, undefined)
    expect(review.agreement.map((a) => [a.key, a.tasks, a.majorityShare])).toEqual([
      ['sentiment.aspect', 1, 0.5],
      ['sentiment.polarity', 2, (2 / 3 + 1) / 2],
    ])
    expect(review.agreement[1]?.disagreements).toEqual([
      { taskId: 'fx_task', share: 2 / 3, values: { A: 2, C: 1 } },
    ])
    expect(review.responses[0]?.taskId).toBe('fx_task')
    const three = review.responses.find((r) => r.workerId === 'AWTHREE')
    expect(three?.response).toEqual({ sentiment: { polarity: 'C' } })
  })
})
