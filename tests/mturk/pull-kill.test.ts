import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { runPull } from '../../src/main/mturk/pullRun'
import { seedDemo } from '../../standin/index'
import { useTempDir } from '../helpers/tmp'
import {
  ALL,
  count,
  expectInterrupted,
  expectResumedWhole,
  useConnections,
} from './project-helpers'
import { CREDENTIALS, useStandin } from './standin-helpers'

const root = join(import.meta.dirname, '..', '..')
const start = useStandin()
const connectTo = useConnections()
const tempDir = useTempDir()

describe('a killed pull', () => {
  it('resumes from its last commit: every assignment once, finished HITs not fetched again', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 200, assignmentsPerHit: 10, brokenEvery: 0 })
    // Every answer 50 ms late, so the pull is still running when it is killed.
    standin.setFaults({ slow: 1, delayMs: 50 })
    const project = join(tempDir(), 'p.winnow')
    openProject(project, { create: true }).close()

    // The real command line, killed with SIGKILL once some pages are committed.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'src/main/cli/main.ts'),
        'pull',
        '--all',
        '--db',
        project,
        '--endpoint',
        standin.url,
      ],
      {
        cwd: root,
        stdio: 'ignore',
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        },
      },
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    const committed = (): number => {
      const db = openProject(project)
      try {
        return count(db, 'SELECT count(*) FROM submissions')
      } finally {
        db.close()
      }
    }
    while (committed() === 0) {
      expect(child.exitCode).toBeNull()
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(child.exitCode).toBeNull()
    child.kill('SIGKILL')
    await exited

    const db = openProject(project)
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const { stored, finished } = expectInterrupted(db, { state: 'running', fewerThan: 2000 })
      // Each finished HIT's assignments are all there.
      expect(stored).toBe(finished.length * 10)

      standin.setFaults({})
      const before = standin.state.requests.length
      const ctx = connectTo(standin)
      const result = await runPull(db, ctx, ALL, {
        endpoint: ctx.url,
        author: 'test',
      })
      expect(result).toMatchObject({ resumed: true, new: 2000 - stored })
      expectResumedWhole(db, standin, { before, finished, total: 2000 })
      expect(count(db, 'SELECT count(*) FROM search_backlog')).toBe(0)
    } finally {
      db.close()
    }
  })
})
