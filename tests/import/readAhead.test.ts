import { createHash } from 'node:crypto'
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { InputError } from '../../src/main/importers/errors'
import { type ImportFile, type ImportOptions, importFiles } from '../../src/main/importers/run'
import { writeDimensionCsvs, writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { useTempDir } from '../helpers/tmp'
import { releaseCsv } from '../helpers/glucose'

/** Every table an import writes, without the times of the run itself. */
function contents(db: Db): Record<string, unknown[]> {
  const rows = (query: string) => db.prepare(query).all()
  return {
    sourceFiles: rows(
      'SELECT id, name, sha256, bytes, format, year, records, submissions_added, annotations_added, warnings FROM source_files ORDER BY id',
    ),
    workers: rows('SELECT * FROM workers ORDER BY id'),
    stories: rows('SELECT * FROM stories ORDER BY id'),
    sentences: rows('SELECT * FROM sentences ORDER BY story_id, idx'),
    submissions: rows('SELECT * FROM submissions ORDER BY id'),
    annotations: rows('SELECT * FROM annotations ORDER BY id'),
    texts: rows('SELECT * FROM annotation_texts ORDER BY annotation_id'),
    backlog: rows('SELECT * FROM search_backlog ORDER BY annotation_id'),
    workerRatings: rows(
      'SELECT id, worker_id, value, effective_from, note FROM worker_ratings ORDER BY id',
    ),
    itemRatings: rows('SELECT id, annotation_id, value, note FROM item_ratings ORDER BY id'),
    effects: rows('SELECT changed, transitions FROM rating_effects ORDER BY change_set_id'),
  }
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

describe('reading ahead on a second thread', () => {
  const tempDir = useTempDir()

  function importBoth(
    dir: string,
    files: ImportFile[],
    options: ImportOptions = {},
  ): { here: Db; ahead: Db } {
    const here = openProject(join(dir, 'here.winnow'), { create: true })
    const ahead = openProject(join(dir, 'ahead.winnow'), { create: true })
    const a = importFiles(here, files, { ...options, readAhead: false })
    const b = importFiles(ahead, files, { ...options, readAhead: true })
    expect(b).toEqual(a)
    return { here, ahead }
  }

  it('writes what reading on one thread writes, over several files and layouts', () => {
    const dir = tempDir()
    const generated = [...generateSubmissions({ count: 1500, seed: 21 })]
    const release = join(dir, 'release.csv')
    writeReleaseCsv(release, generated, { workerStyle: 'mturk', ratingStyle: 'float' })
    // A repeated row: a duplicate key, renamed with a warning that must come back from the thread.
    const lines = readFileSync(release, 'utf8').trimEnd().split('\n')
    appendFileSync(release, `${lines[5]}\n`)
    writeDimensionCsvs(dir, generated.slice(0, 400))
    const files = [release, join(dir, 'dim_1.csv'), join(dir, 'dim_2.csv')].map((path) => ({
      path,
    }))
    const { here, ahead } = importBoth(dir, files, { year: 2019 })
    const expected = contents(here)
    expect(contents(ahead)).toEqual(expected)
    const sourceFiles = (expected.sourceFiles ?? []) as { sha256: string; warnings: string }[]
    expect(sourceFiles.map((f) => f.sha256)).toEqual(files.map((f) => sha256(f.path)))
    expect(sourceFiles[0]?.warnings).toMatch(/occurred before in this file/)
    here.close()
    ahead.close()
  })

  it('reports bad input with the same file, line and column, and changes nothing', () => {
    const dir = tempDir()
    const good = releaseCsv(dir, 'good.csv', 3000, 22)
    // Past the first messages of rows: the import has written rows when the error arrives.
    const bad = join(dir, 'bad.csv')
    const lines = readFileSync(good, 'utf8').split('\n')
    lines[2500] = lines[2500]!.replace(/,[^,]*$/, ',"unterminated')
    writeFileSync(bad, lines.join('\n'))
    const errors: InputError[] = []
    for (const readAhead of [false, true]) {
      const db = openProject(join(dir, `${String(readAhead)}.winnow`), { create: true })
      try {
        importFiles(db, [{ path: good }, { path: bad }], { readAhead })
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(InputError)
        errors.push(error as InputError)
      }
      expect(db.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(*) FROM change_sets').pluck().get()).toBe(0)
      db.close()
    }
    const [here, ahead] = errors
    expect(ahead?.message).toBe(here?.message)
    expect(ahead?.info).toEqual(here?.info)
    expect(ahead?.info).toMatchObject({ file: 'bad.csv', line: 2501 })
  })

  it('stops the thread and rolls back when cancelled', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 6000, 23)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    let progressed = 0
    expect(() =>
      importFiles(
        db,
        [{ path: csv }],
        { readAhead: true },
        { progress: () => progressed++, cancelled: () => progressed > 0 },
      ),
    ).toThrowError(/Cancelled/)
    expect(progressed).toBe(1)
    expect(db.prepare('SELECT count(*) FROM submissions').pluck().get()).toBe(0)
    // The connection is usable at once, and the same file imports in full afterwards.
    const result = importFiles(db, [{ path: csv }], { readAhead: true })
    expect(result.submissions).toBe(6000)
    db.close()
  })

  it('adds nothing when a file is imported again', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 800, 24, {
      workerStyle: 'mturk',
      ratingStyle: 'float',
    })
    const copy = join(dir, 'copy.csv')
    copyFileSync(csv, copy)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    importFiles(db, [{ path: csv }], { readAhead: true })
    const again = importFiles(db, [{ path: copy }], { readAhead: true })
    expect(again).toMatchObject({ submissions: 0, annotations: 0 })
    db.close()
  })
})
