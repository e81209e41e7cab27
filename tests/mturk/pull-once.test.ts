import { spawn } from 'node:child_process'
import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { runPull } from '../../src/main/mturk/pullRun'
import { seedDemo } from '../../standin/index'
import { ALL, count, useConnections, useProject } from './project-helpers'
import { useStandin } from './standin-helpers'

const start = useStandin()
const project = useProject()
const connectTo = useConnections()

describe('one pull of a selection at a time', () => {
  it('refuses a second pull of the same selection while the first runs', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 40, assignmentsPerHit: 9 })
    // Every page takes a while, so the first pull is still running when the second starts.
    standin.setFaults({ slow: 1, delayMs: 100, operations: ['ListAssignmentsForHIT'] })
    const { db, path } = project()
    const other = openProject(path)
    try {
      let second: Promise<unknown> | undefined
      const outcome = (p: Promise<unknown>) =>
        p.then(
          () => 'pulled',
          (e: unknown) => e,
        )
      const first = runPull(db, connectTo(standin), ALL, {
        endpoint: standin.url,
        author: 'app',
        onPage: () => {
          second ??= outcome(
            runPull(other, connectTo(standin), ALL, { endpoint: standin.url, author: 'cli' }),
          )
        },
      })
      const firstResult = await first
      expect(second).toBeDefined()
      expect(await second).toMatchObject({
        message: expect.stringMatching(
          /^A pull of the same selection is already running .*; wait for it to finish or cancel it/,
        ) as unknown,
      })
      expect(firstResult).toMatchObject({ new: 360, resumed: false })
      expect(count(db, 'SELECT count(*) FROM submissions')).toBe(360)
      expect(count(db, 'SELECT count(*) FROM mturk_pulls')).toBe(1)

      // Once it is over, the same selection pulls again.
      standin.setFaults({})
      const again = await runPull(other, connectTo(standin), ALL, {
        endpoint: standin.url,
        author: 'cli',
      })
      expect(again).toMatchObject({ new: 0, resumed: false })
    } finally {
      other.close()
    }
  })

  it('resumes a pull left running by a process that is gone, not one that is alive', async () => {
    const { standin } = await start()
    seedDemo(standin.state, { hits: 5, assignmentsPerHit: 3 })
    const { db } = project()
    await runPull(db, connectTo(standin), ALL, { endpoint: standin.url, author: 'test' })
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      db.prepare("UPDATE mturk_pulls SET state = 'running', runner = ?").run(
        `${hostname()} ${child.pid}`,
      )
      const pull = () =>
        runPull(db, connectTo(standin), ALL, { endpoint: standin.url, author: 'test' })
      await expect(pull()).rejects.toThrow(/already running/)
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    const resumed = await runPullAgain()
    expect(resumed).toMatchObject({ resumed: true, new: 0 })

    function runPullAgain() {
      return runPull(db, connectTo(standin), ALL, { endpoint: standin.url, author: 'test' })
    }
  })
})
