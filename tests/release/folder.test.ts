import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import {
  exportNow,
  partialsBeside,
  releaseProject,
  releaseSubmissions,
  wholeRelease,
} from './helpers'

const tempDir = useTempDir()

/** A project in `<dir>/project/p.winnow` beside a file of the user's; the project's row counts. */
function projectInWork(): { dir: string; work: string; db: string; counts: () => number[] } {
  const dir = tempDir()
  const work = join(dir, 'project')
  mkdirSync(work)
  const { db } = releaseProject(work, releaseSubmissions(30, 4))
  writeFileSync(join(work, 'notes.txt'), 'mine')
  const counts = (): number[] => {
    const project = openProject(db)
    try {
      expect(project.pragma('integrity_check', { simple: true })).toBe('ok')
      return ['submissions', 'annotations', 'exports'].map(
        (t) => project.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number,
      )
    } finally {
      project.close()
    }
  }
  return { dir, work, db, counts }
}

function recorded(db: string, out: string): number {
  const project = openProject(db)
  try {
    return project
      .prepare('SELECT count(*) FROM exports WHERE folder = ?')
      .pluck()
      .get(out) as number
  } finally {
    project.close()
  }
}

describe('what an export may replace', () => {
  it('refuses --force onto the project’s folder or any folder holding it, saying the project is there', async () => {
    const { dir, work, db, counts } = projectInWork()
    const before = counts()
    const listing = readdirSync(work).sort()
    for (const [out, shown] of [
      [work, 'p.winnow'],
      [dir, 'project/p.winnow'],
    ] as const) {
      const run = await cli('export', '--db', db, '--out', out, '--force')
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`${out} holds this project (${shown})`)
      expect(readdirSync(work).sort()).toEqual(listing)
      expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('mine')
      expect(counts()).toEqual(before)
    }
  })

  it('replaces with --force only a folder that holds an earlier release and nothing else', async () => {
    const { dir, db } = projectInWork()
    const other = join(dir, 'other')
    mkdirSync(other)
    writeFileSync(join(other, 'manifest.json'), '{"name": "someone else’s dataset"}')
    writeFileSync(join(other, 'data.csv'), 'a,b\n')
    const refused = await cli('export', '--db', db, '--out', other, '--force')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      `${other} is not a Winnow release (it has no manifest.json of one); it holds data.csv and manifest.json.`,
    )
    expect(readdirSync(other).sort()).toEqual(['data.csv', 'manifest.json'])

    const release = join(dir, 'release')
    exportNow(db, { out: release, tiers: [3] })
    writeFileSync(join(release, 'notes.txt'), 'mine')
    mkdirSync(join(release, '.git'))
    const extra = await cli('export', '--db', db, '--out', release, '--force')
    expect(extra.code).toBe(1)
    expect(extra.stderr).toContain(
      `${release} holds an earlier release and also .git/ and notes.txt, which are not part of it.`,
    )
    expect(readFileSync(join(release, 'notes.txt'), 'utf8')).toBe('mine')
    expect(wholeRelease(release).tiers).toEqual([3])

    const file = join(dir, 'file')
    writeFileSync(file, 'x')
    const notFolder = await cli('export', '--db', db, '--out', file, '--force')
    expect(notFolder.stderr).toContain(`${file} exists and is not a folder.`)
    expect(readFileSync(file, 'utf8')).toBe('x')

    // A link is not followed: the folder it names is given by its own path.
    const link = join(dir, 'link')
    symlinkSync(release, link)
    const linked = await cli('export', '--db', db, '--out', link, '--force')
    expect(linked.stderr).toContain(`${link} is a symbolic link; name the folder itself.`)
    expect(readFileSync(join(release, 'notes.txt'), 'utf8')).toBe('mine')

    const clean = join(dir, 'clean')
    exportNow(db, { out: clean, tiers: [3] })
    const replaced = await cli('export', '--db', db, '--out', clean, '--force')
    expect(replaced.stderr).toBe('')
    expect(replaced.code).toBe(0)
    expect(wholeRelease(clean).tiers).toEqual([3, 2, 1])
    expect(partialsBeside(clean)).toEqual([])
  })

  it('refuses, without --force, a folder that appeared while the release was written: the release there is kept', () => {
    const { dir, db } = projectInWork()
    const out = join(dir, 'release')
    let other = ''
    expect(() =>
      exportNow(
        db,
        { out, tiers: [3] },
        {
          // A second export to the same folder finishes first.
          progress: (_done, step) => {
            if (step === 'Finishing files' && other === '') {
              other = exportNow(db, { out, tiers: [2] }).out
            }
          },
        },
      ),
    ).toThrow(`${out} was created while this release was being written; it was left as it is.`)
    expect(other).toBe(out)
    expect(wholeRelease(out).tiers).toEqual([2])
    expect(recorded(db, out)).toBe(1)
    expect(partialsBeside(out)).toEqual([])
  })

  it('with --force, replaces a release that appeared meanwhile, but never a folder of anything else', () => {
    const { dir, db } = projectInWork()
    const out = join(dir, 'release')
    const appear = (make: () => void) => ({
      progress: (_done: number, step?: string) => {
        if (step === 'Finishing files') make()
      },
    })
    let made = false
    exportNow(
      db,
      { out, tiers: [3], force: true },
      appear(() => {
        if (made) return
        made = true
        exportNow(db, { out, tiers: [2] })
      }),
    )
    expect(wholeRelease(out).tiers).toEqual([3])
    expect(partialsBeside(out)).toEqual([])

    const mine = join(dir, 'mine')
    expect(() =>
      exportNow(
        db,
        { out: mine, force: true },
        appear(() => {
          mkdirSync(mine)
          writeFileSync(join(mine, 'notes.txt'), 'mine')
        }),
      ),
    ).toThrow(
      `${mine} is not a Winnow release (it has no manifest.json of one); it holds notes.txt.`,
    )
    expect(readdirSync(mine)).toEqual(['notes.txt'])
    expect(readFileSync(join(mine, 'notes.txt'), 'utf8')).toBe('mine')
    expect(partialsBeside(mine)).toEqual([])
    expect(recorded(db, mine)).toBe(0)
  })
})
