import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { JobContext, JobReport } from '../../src/main/jobs/manager'
import { runTask } from '../../src/main/tasks/threadTasks'
import { UserError } from '../../src/shared/contract/errors'
import { releaseOptionsSchema } from '../../src/shared/contract/release'
import { useTempDir } from '../helpers/tmp'
import { releaseProject, releaseSubmissions } from '../release/helpers'

const tempDir = useTempDir()

function jobContext(): { context: JobContext; reports: JobReport[]; cancel: () => void } {
  const controller = new AbortController()
  const reports: JobReport[] = []
  return {
    context: { signal: controller.signal, report: (r) => reports.push(r) },
    reports,
    cancel: () => controller.abort(),
  }
}

describe('the task thread', () => {
  it('writes a release as the calling thread does: the same files, the same steps', async () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(80, 4))
    const outcome: Record<string, { files: unknown; steps: unknown }> = {}
    for (const where of ['thread', 'here'] as const) {
      const { context, reports } = jobContext()
      const options = releaseOptionsSchema.parse({ out: join(dir, where), formats: ['csv'] })
      const result = await runTask('export', { dbPath: db, options }, context, where)
      outcome[where] = {
        files: result.files,
        steps: reports.filter((r) => r.newStep).map((r) => r.detail),
      }
    }
    expect(outcome.here?.files).toHaveLength(3)
    expect(outcome.thread).toEqual(outcome.here)
  })

  it('stops an export cancelled before it began, writing no folder, and says so as a UserError', async () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(40, 2))
    const { context, cancel } = jobContext()
    cancel()
    const options = releaseOptionsSchema.parse({ out: join(dir, 'r') })
    const failure = await runTask('export', { dbPath: db, options }, context, 'thread').then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(UserError)
    expect((failure as UserError).info.type).toBe('cancelled')
    expect(existsSync(join(dir, 'r'))).toBe(false)
  })
})
