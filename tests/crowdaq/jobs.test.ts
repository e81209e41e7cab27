import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { applyBands } from '../../src/main/collections/crowdaq/qualify'
import { openProject } from '../../src/main/db/connection'
import { CancelledError } from '../../src/main/jobs/cancel'
import { runImport } from '../../src/main/tasks/importJob'
import type { JobContext, JobReport } from '../../src/main/jobs/manager'
import type { ActionContext } from '../../src/main/mturk/workerActions'
import { Session } from '../../src/main/session'
import { UserError } from '../../src/shared/contract/errors'
import type { JobProgress } from '../../src/shared/contract/jobs'
import { count, useConnections, useProject } from '../mturk/project-helpers'
import { useStandin } from '../mturk/standin-helpers'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'
import { EXPORT_COUNTS, writeDesktopExport } from './desktopExport'
import { examWithBands, fixture } from './helpers'

const tempDir = useTempDir()
const newProject = useProject()
const start = useStandin()
const connectTo = useConnections()
const author = 'test'

function jobContext(cancelWhen: (r: JobReport) => boolean = () => false): {
  context: JobContext
  reports: JobReport[]
} {
  const controller = new AbortController()
  const reports: JobReport[] = []
  return {
    context: {
      signal: controller.signal,
      report: (r) => {
        reports.push(r)
        if (cancelWhen(r)) controller.abort()
      },
    },
    reports,
  }
}

function emptyProject(dir: string, name: string): string {
  const path = join(dir, name)
  openProject(path, { create: true }).close()
  return path
}

/** fx_exam and `n` attempts of it, in one file. */
function examWithAttempts(dir: string, n: number): string {
  const path = join(dir, 'many.json')
  const exam = JSON.parse(readFileSync(fixture('exam.json'), 'utf8')) as unknown
  const rows = Array.from({ length: n }, (_, i) => ({
    _id: `m${i}`,
    exam_id: 'fx_exam',
    worker_id: `AW${i}`,
    assignment_payload: [{ question_id: 'q1' }],
    response_payload: { q1: 'A' },
    complete_time: 1_767_261_600 + i,
  }))
  writeFileSync(path, JSON.stringify([exam, ...rows]))
  return path
}

describe('a CROWDAQ import as a job', () => {
  it('runs on the import thread as on the calling thread, reporting its steps', async () => {
    const dir = tempDir()
    const owner = writeDesktopExport(dir)
    const work = { collection: 'crowdaq' as const, path: owner, options: { author } }
    const steps: Record<string, (string | undefined)[]> = {}
    for (const thread of ['thread', 'here'] as const) {
      const project = emptyProject(dir, `${thread}.winnow`)
      const { context, reports } = jobContext()
      const counts = await runImport(project, work, context, thread)
      expect(counts).toEqual(EXPORT_COUNTS)
      steps[thread] = reports.map((r) => r.detail)
    }
    expect(steps.here).toEqual(['Reading files', 'Checking 12 items', 'Writing 12 items'])
    expect(steps.thread).toEqual(steps.here)
  })
})

describe('cancelling a CROWDAQ import', () => {
  it('rolls back what it was writing: the project stays as it was', async () => {
    const dir = tempDir()
    const path = examWithAttempts(dir, 500)
    const project = emptyProject(dir, 'p.winnow')
    const { context, reports } = jobContext((r) => r.detail?.startsWith('Writing') === true)
    const failure = await runImport(
      project,
      { collection: 'crowdaq', path, options: { author } },
      context,
      'here',
    ).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(CancelledError)
    expect(reports.map((r) => r.detail)).toContain('Writing 501 items')
    withProject(project, (db) => {
      expect(count(db, 'SELECT count(*) FROM crowdaq_exams')).toBe(0)
      expect(count(db, 'SELECT count(*) FROM crowdaq_exam_attempts')).toBe(0)
      expect(count(db, 'SELECT count(*) FROM change_sets')).toBe(0)
    })
  })

  it('from the page: a job whose result is the counts, or whose error names the problem', async () => {
    const dir = tempDir()
    const session = new Session('cli', () => undefined)
    session.open(emptyProject(dir, 'p.winnow'))
    const run = async (path: string): Promise<JobProgress> => {
      const outcome = await dispatch(
        'crowdaq.import',
        { file: session.grantFile(path).ref },
        { session },
      )
      if (!outcome.ok) throw new Error(outcome.error.message)
      await session.jobs.idle()
      const job = session.jobs.get((outcome.value as { jobId: string }).jobId)
      if (!job) throw new Error('no job')
      return job
    }
    const done = await run(examWithAttempts(dir, 3))
    expect(done).toMatchObject({
      kind: 'import',
      state: 'succeeded',
      unit: 'items',
      result: { exams: 1, examAttempts: 3 },
      detail: 'Imported many.json: 1 exam, 3 exam attempts.',
    })
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"exam_id": "x", "question_set": [{"type": "multiple-choice"}]}')
    const failed = await run(bad)
    expect(failed.state).toBe('failed')
    expect(failed.error?.message).toContain('bad.json:1:')
    expect(failed.error?.message).toContain('$.question_set[0]')
    session.close()
  })
})

describe('applying the bands as a job', () => {
  it('stops between groups when cancelled; applying again sends only the rest', async () => {
    const { standin } = await start()
    const main = standin.state.addQualificationType({ Name: 'Main task' }).QualificationTypeId
    const { db } = newProject()
    // One band for every grade: AWONE, AWTHREE, AWTWO and AWFOUR all have a standing attempt.
    examWithBands(db, [{ name: 'all', minGrade: 0, qualificationTypeId: main, value: null }])
    const ctx = connectTo(standin)
    const ac: ActionContext = { db, ctx, endpoint: ctx.url, projectId: 'p-test', author }
    const seen: [number, number][] = []
    const stopped = await applyBands(ac, 'fx_exam', {
      group: 1,
      progress: (done, total) => seen.push([done, total]),
      cancelled: () => seen.length >= 3,
    }).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect(stopped).toBeInstanceOf(UserError)
    expect((stopped as UserError).info.type).toBe('cancelled')
    expect(seen).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
    ])
    expect(count(db, "SELECT count(*) FROM worker_actions WHERE action = 'qualify'")).toBe(2)
    const rest = await applyBands(ac, 'fx_exam')
    expect(rest).toMatchObject({ sent: 2, skipped: 2, failed: 0 })
    expect(count(db, "SELECT count(*) FROM worker_actions WHERE action = 'qualify'")).toBe(4)
  })
})
