import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../helpers/tmp'
import { exportNow, releaseProject, releaseSubmissions, wholeRelease } from './helpers'

const tempDir = useTempDir()

/** The id of a process that has ended. */
function goneProcess(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(run.stdout.toString())
}

/** A folder named as a partial of `release`, with a marker when one is given, and some files. */
function partial(
  dir: string,
  hex: string,
  marker: Record<string, unknown> | null,
  files: string[] = ['release/data/tier-3.csv'],
): string {
  const path = join(dir, `.release.partial-${hex}`)
  mkdirSync(path)
  if (marker) writeFileSync(join(path, '.winnow-partial.json'), JSON.stringify(marker))
  for (const file of files) {
    mkdirSync(join(path, file, '..'), { recursive: true })
    writeFileSync(join(path, file), 'x')
  }
  return path
}

describe('leftovers of killed exports', () => {
  // Putting back an earlier release a kill left moved aside: tests/release/kill.test.ts.
  it('are removed by the next export to that place, and only those it can prove are its own', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(20, 3))
    const out = join(dir, 'release')
    const ours = (pid: number) => ({ winnowPartial: 1, release: 'release', host: hostname(), pid })
    const gone = goneProcess()

    const killed = partial(dir, 'aaaaaaaaaaaa', ours(gone))
    const emptyOne = partial(dir, 'bbbbbbbbbbbb', null, [])
    const running = partial(dir, 'cccccccccccc', ours(process.pid))
    const unmarked = partial(dir, 'dddddddddddd', null)
    const otherHost = partial(dir, 'eeeeeeeeeeee', { ...ours(gone), host: `${hostname()}-other` })
    const otherRelease = partial(dir, 'ffffffffffff', { ...ours(gone), release: 'other' })
    const notMarker = partial(dir, '0123456789ab', { name: 'mine', pid: gone })
    const otherName = join(dir, '.release.partial-notours')
    mkdirSync(otherName)

    exportNow(db, { out })
    wholeRelease(out)
    expect(existsSync(killed)).toBe(false)
    expect(existsSync(emptyOne)).toBe(false)
    for (const kept of [running, unmarked, otherHost, otherRelease, notMarker]) {
      expect(readdirSync(kept).length, kept).toBeGreaterThan(0)
    }
    expect(existsSync(otherName)).toBe(true)
    expect(
      readdirSync(dir)
        .filter((n) => n.startsWith('.release.partial-'))
        .sort(),
    ).toEqual(
      [running, unmarked, otherHost, otherRelease, notMarker, otherName]
        .map((p) => p.slice(dir.length + 1))
        .sort(),
    )
  })

  it('put back a folder a forced export had moved aside when killed, and never remove one that is not a release', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(20, 3))
    const out = join(dir, 'release')
    const marker = { winnowPartial: 1, release: 'release', host: hostname(), pid: goneProcess() }
    // The place is free: what was there goes back (and, not a release, is then refused).
    partial(dir, 'aaaaaaaaaaaa', marker, ['replaced/notes.txt'])
    expect(() => exportNow(db, { out, force: true })).toThrow(`${out} is not a Winnow release`)
    expect(readdirSync(out)).toEqual(['notes.txt'])
    expect(readdirSync(dir).filter((n) => n.startsWith('.release.partial-'))).toEqual([])

    // The place is taken: a leftover holding anything but a release stays.
    const other = join(dir, 'other')
    const kept = join(dir, '.other.partial-bbbbbbbbbbbb')
    mkdirSync(join(kept, 'replaced'), { recursive: true })
    writeFileSync(
      join(kept, '.winnow-partial.json'),
      JSON.stringify({ ...marker, release: 'other' }),
    )
    writeFileSync(join(kept, 'replaced', 'notes.txt'), 'mine')
    mkdirSync(other)
    exportNow(db, { out: other })
    expect(readdirSync(join(kept, 'replaced'))).toEqual(['notes.txt'])
  })
})
