import { spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { useTempDir } from '../helpers/tmp'
import { releaseCsv } from '../helpers/glucose'

const root = join(import.meta.dirname, '..', '..')

describe('a killed import', () => {
  const tempDir = useTempDir()

  it('leaves the project as it was, and intact', async () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'big.csv', 40_000, 31)
    const project = join(dir, 'p.winnow')
    const db = openProject(project, { create: true })
    db.close()

    // The real command line, killed with SIGKILL once it has started writing.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), 'import', csv, '--db', project],
      {
        cwd: root,
        stdio: 'ignore',
      },
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    // Kill once the transaction is writing (the WAL is growing), not before and not after.
    const wal = `${project}-wal`
    while (!(existsSync(wal) && statSync(wal).size > 4 << 20)) {
      expect(child.exitCode).toBeNull()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(child.exitCode).toBeNull()
    child.kill('SIGKILL')
    await exited

    const after = openProject(project)
    expect(after.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(after.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
    expect(after.prepare('SELECT count(*) FROM change_sets').pluck().get()).toBe(0)
    after.close()
  })
})
