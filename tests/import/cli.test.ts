import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeDimensionCsvs, writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { cli, cliOnTerminal } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { releaseCsv } from '../helpers/glucose'

/** `winnow import` and `winnow stats` as other tools call them (the contract in the README). */
describe('winnow import and stats', () => {
  const tempDir = useTempDir()

  it('import --json reports what each file added; stats --json counts the project', async () => {
    const dir = tempDir()
    const generated = [...generateSubmissions({ count: 40, seed: 31 })]
    const csv = join(dir, 'release.csv')
    writeReleaseCsv(csv, generated, { workerStyle: 'int', ratingStyle: 'int' })
    const db = join(dir, 'p.winnow')
    const annotations = generated.reduce((n, s) => n + s.annotations.length, 0)

    const run = await cli('import', csv, '--db', db, '--json')
    expect(run.code).toBe(0)
    expect(run.json).toEqual({
      files: [
        {
          file: 'release.csv',
          format: 'glucose-release',
          records: 40,
          submissions: 40,
          annotations,
          warnings: [],
        },
      ],
      submissions: 40,
      annotations,
    })

    const again = await cli('import', csv, '--db', db)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('Nothing new: all of it was in the project already.')

    const stats = (await cli('stats', '--db', db, '--json')).json as Record<string, unknown>
    expect(stats).toMatchObject({ submissions: 40, annotations })
    const byDimension = stats.byDimension as Record<string, number>
    expect(Object.keys(byDimension).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 10 }, (_, i) => String(i + 1)),
    )
    const byRating = stats.byRating as Record<string, number>
    expect(Object.values(byRating).reduce((a, b) => a + b, 0)).toBe(annotations)
  })

  it('asks for the year of year-less dates, and refuses one out of range as a usage error', async () => {
    const dir = tempDir()
    writeDimensionCsvs(dir, generateSubmissions({ count: 10, seed: 32 }))
    const file = join(dir, 'dim_1.csv')
    const db = join(dir, 'p.winnow')

    const noYear = await cli('import', file, '--db', db)
    expect(noYear.code).toBe(1)
    expect(noYear.stderr).toMatch(/^winnow import: dim_1\.csv:2:\d+: .*has no year.*--year/)

    const old = await cli('import', file, '--db', db, '--year', '1800')
    expect(old.code).toBe(2)
    expect(old.stderr).toContain('--year must be from 1990 to 2100, got 1800')

    const ok = await cli('import', file, '--db', db, '--year', '2019', '--json')
    expect(ok.code).toBe(0)
    expect((ok.json as { submissions: number }).submissions).toBeGreaterThan(0)
  })

  it('says when files hold only a header, and names a missing project once', async () => {
    const dir = tempDir()
    const full = releaseCsv(dir, 'full.csv', 1, 33)
    const header = join(dir, 'header.csv')
    writeFileSync(header, `${readFileSync(full, 'utf8').split('\n')[0]}\n`)

    const empty = await cli('import', header, '--db', join(dir, 'p.winnow'))
    expect(empty.code).toBe(0)
    expect(empty.stdout).toContain('Nothing was added: the file holds no rows, only its header.')

    const gone = join(dir, 'gone.csv')
    const noFile = await cli('import', full, gone, '--db', join(dir, 'p.winnow'))
    expect(noFile.code).toBe(1)
    expect(noFile.stderr).toBe(`winnow import: ${gone}: no such file; nothing was imported.\n`)

    const missing = join(dir, 'missing.winnow')
    const stats = await cli('stats', '--db', missing, '--json')
    expect(stats.code).toBe(1)
    expect(stats.stderr).toBe(`winnow stats: ${missing}: no such project file.\n`)
    expect(existsSync(missing)).toBe(false)
  })

  it('draws its progress on a terminal, naming the steps after the rows', async () => {
    const dir = tempDir()
    // Large enough for the index rebuild (about 700 bytes per annotation, 20,000 of them).
    const csv = releaseCsv(dir, 'large.csv', 5400, 34)
    const run = await cliOnTerminal('import', csv, '--db', join(dir, 'p.winnow'))
    expect(run.code).toBe(0)
    const lines = run.stderr.split('\r').filter((l) => l.trim() !== '')
    // One line, redrawn in place and as wide as the terminal's 79 columns.
    expect(lines.every((l) => l.length === 79 && !l.includes('\n'))).toBe(true)
    expect(lines.some((l) => /^\[#+\.*\] +\d+% [\d.]+ MB [\d,]+ rows\/s +$/.test(l))).toBe(true)
    for (const step of ['Building worker rating timelines', 'Building indexes (1 of 9)']) {
      expect(lines).toContainEqual(
        expect.stringMatching(` 100% [\\d.]+ MB  ${step.replace(/[()]/g, '\\$&')} +$`),
      )
    }
    expect(lines).toContainEqual(
      expect.stringMatching(/% [\d,]+ of [\d,]+ {2}Indexing text for search +$/),
    )
    expect(run.stdout).toContain('Added 5,400 submissions')
  })
})
