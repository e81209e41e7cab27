import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { projectStats } from '../../src/main/db/queries/stats'
import { importFiles } from '../../src/main/importers/run'
import { writeDimensionCsvs, writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { UserError } from '../../src/shared/contract/errors'
import { SubmissionFlag } from '../../src/shared/glucose/flags'
import { useTempDir } from '../helpers/tmp'
import { dimensionCsvs, releaseCsv } from '../helpers/glucose'

function counts(db: Db) {
  const one = (q: string) => db.prepare(q).pluck().get() as number
  return {
    submissions: one('SELECT count(*) FROM submissions'),
    annotations: one('SELECT count(*) FROM annotations'),
    texts: one('SELECT count(*) FROM annotation_texts'),
    changeSets: one('SELECT count(*) FROM change_sets'),
    sourceFiles: one('SELECT count(*) FROM source_files'),
    workers: one('SELECT count(*) FROM workers'),
    stories: one('SELECT count(*) FROM stories'),
  }
}

describe('importFiles', () => {
  const tempDir = useTempDir()

  function project(dir: string) {
    return openProject(join(dir, 'p.winnow'), { create: true })
  }

  it('imports a release CSV and keeps the ratings the file gave', () => {
    const dir = tempDir()
    const generated = [...generateSubmissions({ count: 300, seed: 11 })]
    const csv = join(dir, 'release.csv')
    writeReleaseCsv(csv, generated, { workerStyle: 'int', ratingStyle: 'int' })
    const db = project(dir)
    const result = importFiles(db, [{ path: csv }])
    const expectedAnnotations = generated.reduce((n, s) => n + s.annotations.length, 0)
    expect(result).toMatchObject({ submissions: 300, annotations: expectedAnnotations })
    expect(result.files[0]).toMatchObject({
      file: 'release.csv',
      format: 'glucose-release',
      records: 300,
    })

    const stats = projectStats(db)
    const byRating: Record<string, number> = { unrated: 0 }
    for (const s of generated) {
      const key = s.fileRating === null ? 'unrated' : String(s.fileRating)
      byRating[key] = (byRating[key] ?? 0) + s.annotations.length
    }
    expect(stats.byRating).toEqual(byRating)
    expect(stats.annotations).toBe(expectedAnnotations)
    expect(Object.values(stats.byDimension).reduce((a, b) => a + b, 0)).toBe(expectedAnnotations)
    db.close()
  })

  it('adds nothing when the same file is imported again, and leaves no empty change set', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 120, 3, {
      workerStyle: 'mturk',
      ratingStyle: 'float',
    })
    const db = project(dir)
    importFiles(db, [{ path: csv }])
    const before = counts(db)
    const again = importFiles(db, [{ path: csv }])
    expect(again).toMatchObject({ submissions: 0, annotations: 0 })
    expect(counts(db)).toEqual(before)
    db.close()
  })

  it('merges per-dimension files of the same assignments into the same submissions', () => {
    const dir = tempDir()
    const { generated, files } = dimensionCsvs(dir, 150, 5)
    const db = project(dir)
    // One file first, the rest later: the later files join the submissions the first created.
    importFiles(db, files.slice(0, 1), { year: 2019 })
    const rest = importFiles(db, files.slice(1), { year: 2019 })
    expect(rest.annotations).toBeGreaterThan(0)
    const c = counts(db)
    expect(c.submissions).toBe(generated.length)
    expect(c.annotations).toBe(generated.reduce((n, s) => n + s.annotations.length, 0))
    expect(c.texts).toBe(c.annotations)
    // Only submissions that really hold one dimension keep the "only 1 dimension" flag.
    const single = SubmissionFlag.SingleDimension
    const wrong = db
      .prepare(
        `SELECT count(*) FROM submissions AS s WHERE ((s.flags & ${single}) != 0) !=
           ((SELECT count(*) FROM annotations AS a WHERE a.submission_id = s.id) = 1)`,
      )
      .pluck()
      .get()
    expect(wrong).toBe(0)
    db.close()
  })

  it('asks for a year when dates have none', () => {
    const dir = tempDir()
    writeDimensionCsvs(dir, generateSubmissions({ count: 20, seed: 8 }))
    const db = project(dir)
    try {
      importFiles(db, [{ path: join(dir, 'dim_1.csv') }])
      expect.unreachable()
    } catch (error) {
      expect((error as UserError).info.code).toBe('year-required')
    }
    expect(counts(db).submissions).toBe(0)
    db.close()
  })

  it('imports the test-set layout with worker lists and reference lists kept verbatim', () => {
    const dir = tempDir()
    const db = project(dir)
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'glucose', 'test_key.csv')
    const result = importFiles(db, [{ path: fixture }])
    expect(result.files[0]?.format).toBe('glucose-test')
    expect(result.submissions).toBeGreaterThan(0)
    const refs = db
      .prepare('SELECT worker_ref FROM submissions WHERE worker_ref IS NOT NULL LIMIT 1')
      .pluck()
      .get() as string
    expect(refs.split('****').length).toBeGreaterThanOrEqual(3)
    const cells = db
      .prepare("SELECT specific_nl FROM annotation_texts WHERE specific_nl LIKE '%****%'")
      .pluck()
      .all()
    expect(cells.length).toBeGreaterThan(0)
    db.close()
  })

  it('changes nothing when one file of several is broken, and names file, line and column', () => {
    const dir = tempDir()
    const good = releaseCsv(dir, 'good.csv', 50, 1)
    const bad = join(dir, 'bad.csv')
    const lines = writeAndBreak(good, bad)
    const db = project(dir)
    const before = counts(db)
    try {
      importFiles(db, [{ path: good }, { path: bad }])
      expect.unreachable()
    } catch (error) {
      const info = (error as UserError).info
      expect(info).toMatchObject({ type: 'input', file: 'bad.csv', line: lines })
      expect(info.message).toMatch(/^bad\.csv:\d+/)
    }
    expect(counts(db)).toEqual(before)
    db.close()
  })

  it('rolls everything back when cancelled', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 5000, 2)
    const db = project(dir)
    const before = counts(db)
    let progressed = 0
    expect(() =>
      importFiles(
        db,
        [{ path: csv }],
        {},
        {
          progress: () => progressed++,
          cancelled: () => progressed > 0,
        },
      ),
    ).toThrowError(/Cancelled/)
    expect(progressed).toBeGreaterThan(0)
    expect(counts(db)).toEqual(before)
    db.close()
  })

  it('keeps dirty but valid cells byte for byte', () => {
    const dir = tempDir()
    const csv = join(dir, 'dirty.csv')
    const [first] = [...generateSubmissions({ count: 1, seed: 4 })]
    if (!first) throw new Error('no submission generated')
    const dirty =
      'Someone_A  goes  ((to)) Somewhere A >Causes/Enables> Someone_A  is <img src=x onerror=alert(1)>'
    const a = first.annotations[0]!
    first.annotations[0] = { ...a, specificNL: dirty }
    writeReleaseCsv(csv, [first], { workerStyle: 'int', ratingStyle: 'int' })
    const db = project(dir)
    importFiles(db, [{ path: csv }])
    const stored = db
      .prepare('SELECT specific_nl FROM annotation_texts ORDER BY annotation_id LIMIT 1')
      .pluck()
      .get()
    expect(stored).toBe(dirty)
    db.close()
  })
})

/** Copies `from` and cuts a field off one line in the middle; returns that line's number. */
function writeAndBreak(from: string, to: string): number {
  const text = readFileSync(from, 'utf8')
  const lines = text.split('\n')
  const target = 20
  lines[target - 1] = lines[target - 1]!.replace(/,[^,]*$/, '')
  writeFileSync(to, lines.join('\n'))
  return target
}
