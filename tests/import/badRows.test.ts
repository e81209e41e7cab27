import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { InputError } from '../../src/main/importers/errors'
import { importFiles } from '../../src/main/importers/run'
import { writeDimensionCsvs, writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { useTempDir } from '../helpers/tmp'

const one = (db: Db, q: string) => db.prepare(q).pluck().get() as number

describe('rows an import refuses', () => {
  const tempDir = useTempDir()

  it.each(['7', '-5', '99999999999999999999'])(
    'a rating off the project scale (%s), by file, line and column',
    (value) => {
      const dir = tempDir()
      const generated = [...generateSubmissions({ count: 20, seed: 3 })]
      const path = join(dir, 'release.csv')
      writeReleaseCsv(path, generated, { workerStyle: 'int', ratingStyle: 'int' })
      const lines = readFileSync(path, 'utf8').split('\n')
      const fields = (lines[5] as string).split(',')
      const before = fields.slice(0, 4).join(',') + ','
      fields[4] = value
      lines[5] = fields.join(',')
      writeFileSync(path, lines.join('\n'))
      const db = openProject(join(dir, 'p.winnow'), { create: true })
      try {
        importFiles(db, [{ path }])
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(InputError)
        const e = error as InputError
        expect({ file: e.file, line: e.line, column: e.column, field: e.field }).toEqual({
          file: 'release.csv',
          line: 6,
          column: before.length + 1,
          field: 'worker_quality_rating',
        })
        expect(e.info.message).toMatch(
          /is not on this project's scale \(3, 2, 1\.5, 1, 0, -1, -2\)/,
        )
      }
      expect(one(db, 'SELECT count(*) FROM submissions')).toBe(0)
      db.close()
    },
  )

  it('two rows of one assignment and dimension with different text, by file and line', () => {
    const dir = tempDir()
    writeDimensionCsvs(dir, generateSubmissions({ count: 30, seed: 4 }))
    const path = join(dir, 'dim_1.csv')
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
    const header = (lines[0] as string).split(',')
    const row = lines[2] as string
    const text = row.split(',')[header.indexOf('1_specificNL')] as string
    lines.push(row.replace(text, 'Another text'))
    writeFileSync(path, lines.join('\n') + '\n')
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    expect(() => importFiles(db, [{ path }], { year: 2019 })).toThrowError(
      new RegExp(
        `dim_1\\.csv:${lines.length}:\\d+: 1_specificNL: .*'Another text' here, .* in dim_1\\.csv:3`,
      ),
    )
    expect(one(db, 'SELECT count(*) FROM submissions')).toBe(0)
    db.close()
  })
})
