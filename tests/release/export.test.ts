import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parquetReadObjects } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { countAnnotations } from '../../src/main/db/queries/review/count'
import { projectStats } from '../../src/main/db/queries/stats'
import { UserError } from '../../src/shared/contract/errors'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { exportNow, readCsv, releaseProject, releaseSubmissions } from './helpers'

const tempDir = useTempDir()

function dataFiles(out: string): string[] {
  return readdirSync(join(out, 'data')).sort()
}

function manifestOf(out: string): {
  files: { path: string; rows: number; sha256: string; annotations: number }[]
  leftOut: Record<string, number>
} {
  return JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as never
}

describe('release export', () => {
  it('writes byte-identical data files for the same project and settings', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(150, 5))
    const settings = { formats: ['csv', 'jsonl', 'parquet'] as const, split: { test: 5, tier: 3 } }
    const a = exportNow(db, { out: join(dir, 'a'), ...settings, formats: [...settings.formats] })
    const b = exportNow(db, { out: join(dir, 'b'), ...settings, formats: [...settings.formats] })
    expect(a.files.length).toBe(12)
    expect(b.files).toEqual(a.files)
    for (const f of a.files) {
      expect(readFileSync(join(dir, 'b', f.path))).toEqual(readFileSync(join(dir, 'a', f.path)))
    }
  })

  it('reads back Parquet with an independent reader: the CSV rows, with integer columns typed', async () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(90, 8))
    const out = join(dir, 'r')
    exportNow(db, { out, formats: ['csv', 'parquet'] })
    for (const tier of [3, 2, 1]) {
      const [header = [], ...rows] = readCsv(join(out, 'data', `tier-${tier}.csv`))
      const buffer = readFileSync(join(out, 'data', `tier-${tier}.parquet`))
      const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength)
      const objects = await parquetReadObjects({ file })
      expect(objects.length).toBe(rows.length)
      objects.forEach((o, i) => {
        const row = rows[i] ?? []
        header.forEach((name, c) => {
          const value: unknown = o[name]
          if (
            ['worker_quality_rating', 'selected_sentence_index', 'number_filled_in'].includes(name)
          )
            expect(value).toBe(Number(row[c]))
          else expect(value).toBe(row[c])
        })
      })
    }
  })

  it('writes JSON Lines: one object per submission, its filled dimensions nested', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(30, 2))
    const out = join(dir, 'r')
    exportNow(db, { out, formats: ['csv', 'jsonl'], tiers: [2] })
    const [header = [], ...rows] = readCsv(join(out, 'data', 'tier-2.csv'))
    const lines = readFileSync(join(out, 'data', 'tier-2.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
    expect(lines.length).toBe(rows.length)
    lines.forEach((line, i) => {
      const o = JSON.parse(line) as {
        experiment_id: string
        tier: number
        number_filled_in: number
        dimensions: { dimension: number; specificNL: string }[]
      }
      const row = rows[i] ?? []
      expect(o.experiment_id).toBe(row[0])
      expect(o.tier).toBe(2)
      expect(o.number_filled_in).toBe(Number(row[header.indexOf('number_filled_in')]))
      for (const d of o.dimensions) {
        expect(o.dimensions.map((x) => x.dimension)).toEqual(
          [...o.dimensions.map((x) => x.dimension)].sort((x, y) => x - y),
        )
        expect(d.specificNL).toBe(row[header.indexOf(`${d.dimension}_specificNL`)])
      }
    })
  })

  it('splits by story: no story on both sides, the requested number drawn from the split tier, seeded', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(400, 9))
    const storyIds = (path: string) =>
      new Set(
        readCsv(path)
          .slice(1)
          .map((r) => r[1]),
      )
    const run = (name: string, seed: string) => {
      const out = join(dir, name)
      exportNow(db, { out, split: { test: 7, dev: 0.2, tier: 3, seed } })
      return out
    }
    const out = run('a', 'x')
    expect(dataFiles(out)).toEqual([
      'tier-1-train.csv',
      'tier-2-train.csv',
      'tier-3-dev.csv',
      'tier-3-test.csv',
      'tier-3-train.csv',
    ])
    const test = storyIds(join(out, 'data', 'tier-3-test.csv'))
    const dev = storyIds(join(out, 'data', 'tier-3-dev.csv'))
    expect(test.size).toBe(7)
    expect(dev.size).toBeGreaterThan(0)
    const train = new Set(
      ['tier-1-train.csv', 'tier-2-train.csv', 'tier-3-train.csv'].flatMap((f) => [
        ...storyIds(join(out, 'data', f)),
      ]),
    )
    for (const s of test) expect(train.has(s) || dev.has(s)).toBe(false)
    for (const s of dev) expect(train.has(s)).toBe(false)
    // Tier-3 stories not held out are all in train: dev is 20% of the rest.
    const tier3 = new Set([...storyIds(join(out, 'data', 'tier-3-train.csv')), ...test, ...dev])
    expect(dev.size).toBe(Math.round(0.2 * (tier3.size - 7)))
    // The same seed draws the same stories; another seed others.
    expect(storyIds(join(run('b', 'x'), 'data', 'tier-3-test.csv'))).toEqual(test)
    expect(storyIds(join(run('c', 'y'), 'data', 'tier-3-test.csv'))).not.toEqual(test)
    const left = manifestOf(out).leftOut
    expect(Object.keys(left).some((k) => k.startsWith('story held out for test'))).toBe(true)
  })

  it('states in the datasheet the counts that stats and query give', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(200, 4))
    const out = join(dir, 'r')
    const result = exportNow(db, { out })
    const project = openProject(db)
    try {
      const stats = projectStats(project)
      const manifest = manifestOf(out)
      let total = 0
      for (const tier of [3, 2, 1]) {
        const n = countAnnotations(project, { ratings: [tier] })
        const file = manifest.files.find((f) => f.path === `data/tier-${tier}.csv`)
        expect(file?.annotations).toBe(n)
        expect(result.datasheet).toMatch(
          new RegExp(`\\| ${tier} \\| \\(no split\\) \\| \\d+ \\| ${n} \\|`),
        )
        total += n
      }
      expect(total).toBe(stats.annotations)
      for (let d = 1; d <= 10; d++) {
        const n = countAnnotations(project, { dimensions: [d] })
        const sum = [3, 2, 1]
          .map((t) => countAnnotations(project, { dimensions: [d], ratings: [t] }))
          .reduce((x, y) => x + y, 0)
        expect(sum).toBe(n)
      }
      expect(result.datasheet).toContain('## Policies applied')
      expect(result.datasheet).toContain('No audits recorded.')
      expect(readFileSync(join(out, 'datasheet.md'), 'utf8')).toBe(result.datasheet)
    } finally {
      project.close()
    }
  })

  it('exports only what the filter selects, and ratings as they stood at a past moment', async () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(120, 6))
    const filtered = join(dir, 'filtered')
    exportNow(db, { out: filtered, filter: { dimensions: [2] } })
    for (const f of dataFiles(filtered)) {
      const [header = [], ...rows] = readCsv(join(filtered, 'data', f))
      for (const row of rows) {
        expect(row[header.indexOf('number_filled_in')]).toBe('1')
        expect(row[header.indexOf('2_specificNL')]).not.toBe('escaped')
      }
    }
    const project = openProject(db)
    const withDim2 = countAnnotations(project, { dimensions: [2] })
    project.close()
    expect(manifestOf(filtered).files.reduce((n, f) => n + f.annotations, 0)).toBe(withDim2)

    const before = join(dir, 'before')
    exportNow(db, { out: before })
    const moment = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const rated = await cli('rate', '--db', db, '--rating', '0', '--all', '--json')
    expect(rated.code).toBe(0)
    const now = join(dir, 'now')
    exportNow(db, { out: now })
    expect(manifestOf(now).files.every((f) => f.rows === 0)).toBe(true)
    const past = join(dir, 'past')
    exportNow(db, { out: past, asOf: moment })
    expect(manifestOf(past).files).toEqual(manifestOf(before).files)
  })

  it('neutralises formulas only when asked', () => {
    const dir = tempDir()
    const subs = releaseSubmissions(6, 1).map((s) => ({ ...s, fileRating: 3 }))
    const first = subs[0]
    const annotation = first?.annotations[0]
    if (!first || !annotation) throw new Error('no annotation generated')
    first.annotations[0] = {
      ...annotation,
      specificNL: '=HYPERLINK("http://x")',
      generalNL: '@SUM(1)',
    }
    const { db } = releaseProject(dir, subs)
    const column = `${annotation.dimension}_specificNL`
    const cellOf = (out: string, name: string) => {
      const [header = [], row = []] = readCsv(join(out, 'data', 'tier-3.csv'))
      return row[header.indexOf(name)]
    }
    exportNow(db, { out: join(dir, 'plain') })
    expect(cellOf(join(dir, 'plain'), column)).toBe('=HYPERLINK("http://x")')
    exportNow(db, { out: join(dir, 'safe'), neutralizeFormulas: true, formats: ['csv', 'jsonl'] })
    expect(cellOf(join(dir, 'safe'), column)).toBe(`'=HYPERLINK("http://x")`)
    expect(cellOf(join(dir, 'safe'), `${annotation.dimension}_generalNL`)).toBe(`'@SUM(1)`)
    expect(readFileSync(join(dir, 'safe', 'data', 'tier-3.jsonl'), 'utf8')).toContain(
      `"specificNL":"'=HYPERLINK(\\"http://x\\")"`,
    )
  })

  it('leaves no folder behind when cancelled or failing, and refuses a folder that is not empty', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(2000, 7))
    const before = readdirSync(dir).sort()
    expect(() =>
      exportNow(
        db,
        { out: join(dir, 'r'), formats: ['csv', 'parquet'] },
        { cancelled: () => true },
      ),
    ).toThrow(/cancelled/)
    expect(readdirSync(dir).sort()).toEqual(before)
    expect(() =>
      exportNow(
        db,
        { out: join(dir, 'r') },
        {
          progress: (done) => {
            if (done > 0) throw new Error('disk full')
          },
        },
      ),
    ).toThrow(/disk full/)
    expect(readdirSync(dir).sort()).toEqual(before)

    const full = join(dir, 'full')
    mkdirSync(full)
    writeFileSync(join(full, 'keep.txt'), 'x')
    let refused: unknown
    try {
      exportNow(db, { out: full })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(UserError)
    expect((refused as UserError).info.field).toBe('out')
    expect(readdirSync(full)).toEqual(['keep.txt'])
    // Forced, only an earlier release is replaced (tests/release/folder.test.ts).
    expect(() => exportNow(db, { out: full, force: true })).toThrow(/is not a Winnow release/)
    expect(readdirSync(full)).toEqual(['keep.txt'])
  })

  it('prints pseudonymous worker ids that stay the same from one release to the next', () => {
    const dir = tempDir()
    const subs = releaseSubmissions(60, 12).map((s, i) => ({
      ...s,
      workerExternalId: `A${100 + (i % 9)}XYZ`,
    }))
    const { db } = releaseProject(dir, subs)
    const workersOf = (out: string) =>
      [3, 2, 1].flatMap((t) =>
        readCsv(join(out, 'data', `tier-${t}.csv`))
          .slice(1)
          .map((r) => r[2]),
      )
    exportNow(db, { out: join(dir, 'a'), pseudonymize: true })
    exportNow(db, { out: join(dir, 'b'), pseudonymize: true })
    const a = workersOf(join(dir, 'a'))
    expect(a.every((w) => /^[1-9]\d*$/.test(w ?? ''))).toBe(true)
    expect(workersOf(join(dir, 'b'))).toEqual(a)
    for (const file of ['manifest.json', 'datasheet.md', 'README.md', 'croissant.json']) {
      expect(readFileSync(join(dir, 'a', file), 'utf8')).not.toContain('XYZ')
    }
  })

  it('answers winnow export --json with the files, manifest and datasheet', async () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(50, 3))
    const run = await cli(
      'export',
      '--db',
      db,
      '--out',
      join(dir, 'r'),
      '--format',
      'csv,jsonl',
      '--split-test',
      '3',
      '--split-tier',
      '3',
      '--seed',
      '1',
      '--json',
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const json = run.json as {
      files: { path: string; rows: number; sha256: string }[]
      datasheet: string
      manifest: unknown
    }
    expect(json.files.map((f) => f.path)).toContain('data/tier-3-test.csv')
    expect(json.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true)
    expect(json.datasheet).toContain('# Datasheet')
    const again = await cli('export', '--db', db, '--out', join(dir, 'r'), '--json')
    expect(again.code).not.toBe(0)
    expect(again.stderr).toContain('not empty')
  })
})
