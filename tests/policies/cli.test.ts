import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { day, importSubmissions, newProject } from '../ratings/helpers'
import { policiesDir, ratingsSnapshot } from './helpers'

describe('winnow policy', () => {
  const tempDir = useTempDir()

  function project(dir: string): string {
    const db = newProject(dir)
    importSubmissions(db, [
      { worker: 'W1', at: day('2019-09-01'), fileRating: 3 },
      { worker: 'W2', at: day('2019-09-01'), fileRating: -2 },
      { worker: 'W3', at: day('2019-09-02'), fileRating: 0 },
    ])
    db.close()
    return join(dir, 'p.winnow')
  }

  it('dry runs, applies and reverts the shipped cleanup, printing the documented JSON', async () => {
    const dir = tempDir()
    const db = project(dir)
    const file = join(policiesDir, 'glucose-cleanup.ts')
    const dry = await cli('policy', 'run', file, '--db', db, '--dry-run', '--json')
    expect(dry.code).toBe(0)
    expect(dry.json).toEqual({
      rules: [
        { name: "Prolific workers' 3s that failed review → 2", annotations: 0, workers: 0 },
        { name: "Checked workers' 3s that failed review → 2", annotations: 0, workers: 0 },
        { name: 'Rushing (−2) → 2', annotations: 2, workers: 1 },
        { name: '1.5, 0 and −1 → 1', annotations: 2, workers: 1 },
      ],
      transitions: [
        { from: 0, to: 1, annotations: 2 },
        { from: -2, to: 2, annotations: 2 },
      ],
      changed: 4,
    })
    const applied = await cli(
      'policy',
      'run',
      file,
      '--db',
      db,
      '--param',
      'check=1',
      '--param',
      'failedReview=W1',
      '--json',
    )
    expect(applied.code).toBe(0)
    expect(applied.json).toMatchObject({ changed: 6, changeSet: expect.any(Number) as unknown })
    const revert = await cli(
      'revert',
      String((applied.json as { changeSet: number }).changeSet),
      '--db',
      db,
    )
    expect(revert.code).toBe(0)
  })

  it('fails with FILE:LINE on stderr and exit 1, changing nothing', async () => {
    const dir = tempDir()
    const db = project(dir)
    const file = join(dir, 'bad.ts')
    writeFileSync(
      file,
      "import { definePolicy } from './winnow-policy'\nexport default definePolicy({\n  name: 'bad',\n  rules() {\n    throw new Error('no')\n  },\n})\n",
    )
    const { openProject } = await import('../../src/main/db/connection')
    const read = () => {
      const c = openProject(db)
      try {
        return ratingsSnapshot(c)
      } finally {
        c.close()
      }
    }
    const before = read()
    const run = await cli('policy', 'run', file, '--db', db)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`${file}:5:`)
    expect(run.stderr).toContain('no')
    const param = await cli(
      'policy',
      'run',
      join(policiesDir, 'glucose-cleanup.ts'),
      '--db',
      db,
      '--param',
      'check',
    )
    expect(param.code).toBe(2)
    expect(read()).toEqual(before)
  })

  it('init writes a starter and the API types beside it, which dry runs', async () => {
    const dir = tempDir()
    const db = project(dir)
    const file = join(dir, 'mine.ts')
    const init = await cli('policy', 'init', file)
    expect(init.code).toBe(0)
    expect(readFileSync(join(dir, 'winnow-policy.d.ts'), 'utf8')).toBe(
      readFileSync(join(policiesDir, 'winnow-policy.d.ts'), 'utf8'),
    )
    expect((await cli('policy', 'init', file)).code).toBe(2)
    const dry = await cli(
      'policy',
      'run',
      file,
      '--db',
      db,
      '--dry-run',
      '--param',
      'minSubmissions=0',
      '--json',
    )
    expect(dry.code).toBe(0)
  })
})
