import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { InputError } from '../../src/main/importers/errors'
import { importFiles } from '../../src/main/importers/run'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { writeDimensionCsvs, writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { useTempDir } from '../helpers/tmp'

const one = (db: Db, q: string) => db.prepare(q).pluck().get() as number

/** The same collection in both layouts: a release file and the ten per-dimension files. */
function bothLayouts(dir: string, count = 120, seed = 7) {
  const generated: ImportedSubmission[] = [...generateSubmissions({ count, seed })]
  const release = join(dir, 'release.csv')
  writeReleaseCsv(release, generated, { workerStyle: 'mturk', ratingStyle: 'float' })
  writeDimensionCsvs(dir, generated)
  const dims = Array.from({ length: 10 }, (_, i) => ({ path: join(dir, `dim_${i + 1}.csv`) }))
  const annotations = generated.reduce((n, s) => n + s.annotations.length, 0)
  return { generated, release: { path: release }, dims, annotations }
}

describe('the same submissions in two layouts', () => {
  const tempDir = useTempDir()
  const project = (dir: string) => openProject(join(dir, 'p.winnow'), { create: true })

  it('merges a release file and per-dimension files imported together, never doubling', () => {
    for (const order of ['release first', 'dimensions first'] as const) {
      const dir = tempDir()
      const { generated, release, dims, annotations } = bothLayouts(dir)
      const db = project(dir)
      const files = order === 'release first' ? [release, ...dims] : [...dims, release]
      const result = importFiles(db, files, { year: 2019 })
      expect(result.submissions, order).toBe(generated.length)
      expect(result.annotations, order).toBe(annotations)
      expect(one(db, 'SELECT count(*) FROM submissions')).toBe(generated.length)
      expect(one(db, 'SELECT count(*) FROM annotations')).toBe(annotations)
      // Each worker's work counts once.
      const perWorker = new Map<string, number>()
      for (const s of generated)
        perWorker.set(s.workerExternalId ?? '', (perWorker.get(s.workerExternalId ?? '') ?? 0) + 1)
      const stored = db
        .prepare(
          'SELECT w.external_id AS w, count(*) AS n FROM submissions s JOIN workers w ON w.id = s.worker_id GROUP BY w.id',
        )
        .all() as { w: string; n: number }[]
      expect(stored.map((r) => r.n).sort((a, b) => a - b)).toEqual(
        [...perWorker.values()].sort((a, b) => a - b),
      )
      // The release rows learn their assignment ids from the per-dimension files.
      expect(one(db, 'SELECT count(*) FROM submissions WHERE assignment_id IS NULL')).toBe(0)
      db.close()
    }
  })

  it('merges per-dimension files imported after the release file, and again adds nothing', () => {
    const dir = tempDir()
    const { generated, release, dims, annotations } = bothLayouts(dir)
    const db = project(dir)
    importFiles(db, [release], { year: 2019 })
    const later = importFiles(db, dims, { year: 2019 })
    expect(later).toMatchObject({ submissions: 0, annotations: 0 })
    expect(importFiles(db, [release, ...dims], { year: 2019 })).toMatchObject({
      submissions: 0,
      annotations: 0,
    })
    expect(one(db, 'SELECT count(*) FROM submissions')).toBe(generated.length)
    expect(one(db, 'SELECT count(*) FROM annotations')).toBe(annotations)
    db.close()
  })

  it('refuses cells that differ, naming file, line and column, and imports nothing', () => {
    const dir = tempDir()
    const { release, dims } = bothLayouts(dir)
    // Change one statement in dim_1.csv, line 3.
    const dim1 = dims[0]?.path as string
    const lines = readFileSync(dim1, 'utf8').split('\n')
    const fields = (lines[2] as string).split(',')
    const header = (lines[0] as string).split(',')
    const col = header.indexOf('1_specificNL')
    const original = fields[col] as string
    expect(original).not.toContain('"')
    lines[2] = (lines[2] as string).replace(original, 'Someone changed this')
    writeFileSync(dim1, lines.join('\n'))

    for (const files of [
      [release, ...dims],
      [...dims, release],
    ]) {
      const db = project(tempDir())
      try {
        importFiles(db, files, { year: 2019 })
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(InputError)
        const e = error as InputError
        expect(e.code).toBe('conflicting-cells')
        expect(e.info.message).toMatch(/Nothing was imported/)
        if (files[0] === release) {
          expect(e.file).toBe('dim_1.csv')
          expect(e.line).toBe(3)
          expect(e.field).toBe('1_specificNL')
          const before = lines[2].slice(0, lines[2].indexOf('Someone'))
          expect(e.column).toBe([...before].length + 1)
          expect(e.info.message).toContain("'Someone changed this' here")
          expect(e.info.message).toContain('release.csv:')
        } else {
          expect(e.file).toBe('release.csv')
          expect(e.field).toBe('1_specificNL')
          expect(e.info.message).toContain('dim_1.csv:')
        }
      }
      expect(one(db, 'SELECT count(*) FROM submissions')).toBe(0)
      expect(one(db, 'SELECT count(*) FROM change_sets')).toBe(0)
      db.close()
    }
  })

  it('refuses a release row that leaves escaped a dimension the per-dimension files filled', () => {
    const dir = tempDir()
    const { dims, generated } = bothLayouts(dir)
    const db = project(dir)
    importFiles(db, dims, { year: 2019 })
    const emptied = generated.map((s, i) =>
      i === 4 ? { ...s, annotations: s.annotations.slice(1), declaredFilled: null } : s,
    )
    const release = join(dir, 'release2.csv')
    writeReleaseCsv(release, emptied, { workerStyle: 'mturk', ratingStyle: 'float' })
    const before = one(db, 'SELECT count(*) FROM annotations')
    expect(() => importFiles(db, [{ path: release }])).toThrowError(
      /release2\.csv:6:\d+: \d+_specificNL: .*dimension \d+ is escaped here but filled in dim_\d+\.csv/,
    )
    expect(one(db, 'SELECT count(*) FROM annotations')).toBe(before)
    db.close()
  })
})
