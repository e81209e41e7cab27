import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  detectFormat,
  dimensionColumns,
  RELEASE_COLUMNS,
  TEST_COLUMNS,
} from '../../../src/main/importers/glucose/columns'
import { type OpenGlucoseOptions, openGlucoseFile } from '../../../src/main/importers/glucose/open'
import { InputError } from '../../../src/main/importers/errors'
import { useTempDir } from '../../helpers/tmp'

const tempDir = useTempDir()
const fixtureText = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/glucose/${name}`, import.meta.url)), 'utf8')

/** The fixture with its `row`-th line (1 = header) changed, written to a temp file. */
function variant(name: string, row: number, change: (fields: string[]) => string[]): string {
  const lines = fixtureText(name).split('\n')
  // Fixture rows that matter here have no quoted commas in the changed columns.
  lines[row - 1] = change(splitSimple(lines[row - 1] ?? '')).join(',')
  const path = join(tempDir(), name)
  writeFileSync(path, lines.join('\n'))
  return path
}

/** Splits a CSV line whose quoted fields may hold commas, keeping the quotes. */
function splitSimple(line: string): string[] {
  return line
    .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
    .filter((s, i, all) => s !== '' || i < all.length - 1)
    .map((s) => s.replace(/,$/, ''))
}

function failure(path: string, opts: OpenGlucoseOptions = {}): InputError {
  try {
    for (const _ of openGlucoseFile(path, opts).records()) void _
  } catch (e) {
    if (e instanceof InputError) return e
    throw e
  }
  throw new Error('expected an InputError')
}

describe('detectFormat', () => {
  it('recognises the three layouts and both spellings of the quality column', () => {
    expect(detectFormat([...RELEASE_COLUMNS])).toBe('glucose-release')
    const assessed = RELEASE_COLUMNS.map((c) =>
      c === 'worker_quality_rating' ? 'worker_quality_assessment' : c,
    )
    expect(detectFormat(assessed)).toBe('glucose-release')
    expect(detectFormat(['assignment_id', ...RELEASE_COLUMNS])).toBe('glucose-release')
    expect(detectFormat(dimensionColumns(7))).toBe('glucose-dimension')
    expect(detectFormat([...TEST_COLUMNS])).toBe('glucose-test')
    expect(detectFormat(RELEASE_COLUMNS.slice(0, 48))).toBeNull()
    expect(
      detectFormat(
        dimensionColumns(7).map((c) => c.replace('7_generalNL_post', '6_generalNL_post')),
      ),
    ).toBeNull()
    expect(detectFormat(['a', 'b'])).toBeNull()
  })
})

describe('GLUCOSE input errors', () => {
  it('says which header columns were expected and which found', () => {
    const path = variant('release.csv', 1, (h) =>
      h.map((c) => (c === 'worker_quality_assessment' ? 'quality' : c)),
    )
    const e = failure(path)
    expect(e.code).toBe('wrong-header')
    expect([e.line, e.column]).toEqual([1, 61])
    expect(e.reason).toContain(
      "column 5: expected 'worker_quality_rating' or 'worker_quality_assessment', found 'quality'",
    )
    expect(e.reason).toContain('expected 49 columns, found 49 columns')
    const unknown = failure(variant('release.csv', 1, () => ['a', 'b', 'c']))
    expect(unknown.reason).toMatch(
      /^unrecognised header; expected a GLUCOSE release \(49 columns: 'experiment_id'/,
    )
    expect(unknown.reason).toContain("found 3 columns: 'a', 'b', 'c'")
  })

  it('refuses a forced format the header does not match, naming what the header is', () => {
    const e = failure(
      variant('dim_3.csv', 2, (f) => f),
      { format: 'glucose-release' },
    )
    expect(e.code).toBe('format-mismatch')
    expect(e.reason).toMatch(
      /^the chosen format glucose-release does not match this file \(its header is glucose-dimension\): /,
    )
  })

  it('refuses a ragged row with the expected and found counts', () => {
    const e = failure(variant('release.csv', 3, (f) => f.slice(0, 48)))
    expect(e.code).toBe('ragged-row')
    expect(e.line).toBe(3)
    expect(e.reason).toBe('expected 49 fields, found 48')
  })

  it.each([
    [
      2,
      'worker_id',
      'A worker',
      /^expected a worker id: an integer like 19 or an MTurk id like A3QA0Y16Q4273V, found 'A worker'$/,
    ],
    [3, 'submission_time_normalized', '20190231', /^expected a date as YYYYMMDD/],
    [
      4,
      'worker_quality_assessment',
      'good',
      /^expected a number such as 3, 2\.0, 1\.5 or -1, found 'good'$/,
    ],
    [5, 'selected_sentence_index', '5', /^expected a sentence index from 0 to 4, found '5'$/],
    [1, 'story_id', 'not a story__id', /^expected a story id like/],
    [48, 'number_filled_in', 'two', /^expected a whole number of filled dimensions/],
  ])('names the field of a bad typed value (column %i, %s)', (index, field, value, reason) => {
    const e = failure(variant('release.csv', 4, (f) => f.map((c, i) => (i === index ? value : c))))
    expect(e.code).toBe('bad-value')
    expect(e.field).toBe(field)
    expect(e.line).toBe(4)
    expect(e.reason).toMatch(reason)
    expect(e.message.startsWith(`release.csv:4:${e.column}: ${field}: `)).toBe(true)
  })

  it('refuses a year-less date that does not exist in the given year', () => {
    const e = failure(
      variant('dim_3.csv', 2, (f) => f.map((c, i) => (i === 4 ? '229' : c))),
      { year: 2019 },
    )
    expect(e.code).toBe('bad-value')
    expect(e.reason).toBe("expected a date that exists in 2019, found '229'")
  })

  it('refuses a test-set id without a sentence index', () => {
    const e = failure(
      variant('test_key.csv', 2, (f) => f.map((c, i) => (i === 0 ? 'no-index' : c))),
    )
    expect(e.code).toBe('bad-value')
    expect(e.field).toBe('unique_id')
    expect(e.reason).toMatch(/^expected an id of the form <story id>__<sentence index>/)
  })
})
