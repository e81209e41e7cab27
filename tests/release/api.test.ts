import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { Session } from '../../src/main/session'
import type { JobProgress } from '../../src/shared/contract/jobs'
import type { ReleaseResult, ReleaseSettings } from '../../src/shared/contract/release'
import { useTempDir } from '../helpers/tmp'
import { releaseProject, releaseSubmissions } from './helpers'

const tempDir = useTempDir()

function opened(count: number) {
  const dir = tempDir()
  const { db } = releaseProject(dir, releaseSubmissions(count, 21))
  const session = new Session('cli', () => undefined)
  session.open(db)
  return { dir, session }
}

async function ok<T>(promise: ReturnType<typeof dispatch>): Promise<T> {
  const outcome = await promise
  if (!outcome.ok) throw new Error(outcome.error.message)
  return outcome.value as T
}

describe('release API', () => {
  it('keeps the tier map and card as project settings', async () => {
    const { session } = opened(20)
    const before = await ok<ReleaseSettings>(dispatch('release.settings', {}, { session }))
    expect(before.tierMap).toEqual([
      { rating: 3, tier: 3 },
      { rating: 2, tier: 2 },
      { rating: 1, tier: 1 },
    ])
    const bad = await dispatch(
      'release.saveSettings',
      {
        tierMap: [
          { rating: 3, tier: 1 },
          { rating: 3, tier: 2 },
        ],
      },
      { session },
    )
    expect(bad).toMatchObject({ ok: false, error: { type: 'invalid-argument' } })
    const saved = await ok<ReleaseSettings>(
      dispatch('release.saveSettings', { tierMap: [{ rating: 1.5, tier: 1 }] }, { session }),
    )
    expect(saved.tierMap).toEqual([{ rating: 1.5, tier: 1 }])
    session.close()
  })

  it('exports as a job, and a cancelled job leaves no folder', async () => {
    const { dir, session } = opened(600)
    const out = join(dir, 'r')
    const { jobId } = await ok<{ jobId: string }>(
      dispatch('release.export', { out, formats: ['csv', 'parquet'] }, { session }),
    )
    await session.jobs.idle()
    const job = session.jobs.get(jobId) as JobProgress
    expect(job.state).toBe('succeeded')
    expect(job.kind).toBe('export')
    expect((job.result as ReleaseResult).files).toHaveLength(6)

    // Here the export runs in this thread and checks for cancel between batches of rows; a job
    // cancelled before its turn ends at once (tests/release/export.test.ts cancels one mid-way).
    const first = await ok<{ jobId: string }>(
      dispatch('release.export', { out: join(dir, 'first') }, { session }),
    )
    const other = join(dir, 'other')
    const started = await ok<{ jobId: string }>(
      dispatch('release.export', { out: other }, { session }),
    )
    session.jobs.cancel(started.jobId)
    expect(first.jobId).not.toBe(started.jobId)
    await session.jobs.idle()
    expect(session.jobs.get(started.jobId)?.state).toBe('cancelled')
    expect(existsSync(other)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([])
    session.close()
  })

  it('never lets the page empty a folder that holds no release, even with force', async () => {
    const { dir, session } = opened(10)
    const mine = join(dir, 'mine')
    mkdirSync(mine)
    writeFileSync(join(mine, 'notes.txt'), 'keep me')
    const outcome = await dispatch('release.export', { out: mine, force: true }, { session })
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'not-a-release-folder', field: 'out' },
    })
    expect(readdirSync(mine)).toEqual(['notes.txt'])
    // Nor the project's own folder.
    const listing = readdirSync(dir).sort()
    const own = await dispatch('release.export', { out: dir, force: true }, { session })
    expect(own).toMatchObject({
      ok: false,
      error: {
        code: 'not-a-release-folder',
        message: expect.stringContaining(`${dir} holds this project (p.winnow).`) as unknown,
      },
    })
    expect(readdirSync(dir).sort()).toEqual(listing)
    // An earlier release may be replaced.
    const out = join(dir, 'r')
    await ok(dispatch('release.export', { out }, { session }))
    await session.jobs.idle()
    const again = await ok<{ jobId: string }>(
      dispatch('release.export', { out, force: true }, { session }),
    )
    await session.jobs.idle()
    expect(session.jobs.get(again.jobId)?.state).toBe('succeeded')
    session.close()
  })
})
