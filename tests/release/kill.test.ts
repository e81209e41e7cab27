import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { useTempDir } from '../helpers/tmp'
import {
  exportNow,
  partialsBeside,
  releaseProject,
  releaseSubmissions,
  wholeRelease,
} from './helpers'

const root = join(import.meta.dirname, '..', '..')
const tempDir = useTempDir()

/** Exports in a child process killed with SIGKILL at `step` (`removed#2`: its second time). */
async function exportKilledAt(
  db: string,
  out: string,
  step: string,
  force: boolean,
): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'exportUntil.ts'),
      db,
      out,
      step,
      force ? 'force' : '',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, s) => resolve(s)),
  )
  expect(signal, `the export reached ${step} and was killed there`).toBe('SIGKILL')
}

/** A project with a release of tier 3 only at `out`; the exports below write every tier. */
function projectWithRelease(): { db: string; out: string } {
  const dir = tempDir()
  const { db } = releaseProject(dir, releaseSubmissions(40, 6))
  const out = join(dir, 'release')
  exportNow(db, { out, tiers: [3] })
  return { db, out }
}

const OLD = [3]
const NEW = [3, 2, 1]

function releasesRecorded(db: string, out: string): number {
  const project = openProject(db)
  try {
    expect(project.pragma('integrity_check', { simple: true })).toBe('ok')
    return project
      .prepare('SELECT count(*) FROM exports WHERE folder = ?')
      .pluck()
      .get(out) as number
  } finally {
    project.close()
  }
}

describe('a killed export', () => {
  it.each([
    // [step killed at, release at the folder after the kill, after the next export's tidying]
    ['written', OLD, OLD],
    ['moved aside', null, OLD],
    ['in place', NEW, NEW],
    ['removed', NEW, NEW],
    ['unmarked', NEW, NEW],
  ] as const)(
    'killed at "%s" of a forced replace leaves the earlier release or the new one whole, and the next export removes what it left',
    async (step, after, tidied) => {
      const { db, out } = projectWithRelease()
      await exportKilledAt(db, out, step, true)
      if (after === null) expect(existsSync(out)).toBe(false)
      else expect(wholeRelease(out).tiers).toEqual(after)
      expect(partialsBeside(out)).toHaveLength(1)

      // The next export to that place (not forced: refused, the folder holds a release) tidies.
      expect(() => exportNow(db, { out })).toThrow(/is not empty/)
      expect(partialsBeside(out)).toEqual([])
      expect(wholeRelease(out).tiers).toEqual(tidied)
      // The one window: a kill between the rename and recording it leaves it unrecorded.
      expect(releasesRecorded(db, out)).toBe(step === 'removed' || step === 'unmarked' ? 2 : 1)
    },
  )

  it.each(['written', 'in place', 'unmarked'] as const)(
    'killed at "%s" of an export to a new folder leaves no folder or the release whole, and the next export removes what it left',
    async (step) => {
      const dir = tempDir()
      const { db } = releaseProject(dir, releaseSubmissions(30, 8))
      const out = join(dir, 'release')
      await exportKilledAt(db, out, step, false)
      expect(existsSync(out)).toBe(step !== 'written')
      if (step !== 'written') expect(wholeRelease(out).tiers).toEqual(NEW)
      expect(partialsBeside(out)).toHaveLength(1)

      if (step === 'written') exportNow(db, { out })
      else expect(() => exportNow(db, { out })).toThrow(/is not empty/)
      expect(partialsBeside(out)).toEqual([])
      expect(wholeRelease(out).tiers).toEqual(NEW)
    },
  )

  it('killed while removing what earlier kills left, leaves the rest for the next export to finish', async () => {
    const { db, out } = projectWithRelease()
    // The earlier release moved aside, then each step of removing that leftover killed in turn.
    await exportKilledAt(db, out, 'moved aside', true)
    expect(existsSync(out)).toBe(false)
    await exportKilledAt(db, out, 'restored', true)
    expect(wholeRelease(out).tiers).toEqual(OLD)
    await exportKilledAt(db, out, 'removed', true)
    expect(partialsBeside(out)).toHaveLength(1)
    await exportKilledAt(db, out, 'unmarked', true)
    expect(partialsBeside(out)).toHaveLength(1)
    expect(wholeRelease(out).tiers).toEqual(OLD)

    exportNow(db, { out, force: true })
    expect(wholeRelease(out).tiers).toEqual(NEW)
    expect(partialsBeside(out)).toEqual([])
    expect(releasesRecorded(db, out)).toBe(2)
  })
})
