import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mergeByAssignment } from '../../src/main/importers/glucose/dimension'
import { openGlucoseFile } from '../../src/main/importers/glucose/open'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { csvField, writeDimensionCsvs, writeReleaseCsv, writeTestCsv } from '../helpers/csv-writers'
import { generateSubmissions, generateTestSet } from '../../src/main/synth/glucose'
import { mturkWorkerId } from '../../src/main/synth/workers'
import { AnnotationFlag, SubmissionFlag } from '../../src/shared/glucose/flags'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()

function read(path: string, year?: number): ImportedSubmission[] {
  return [...openGlucoseFile(path, year === undefined ? {} : { year }).records()]
}

describe('release CSV round trip', () => {
  it('reads back what it wrote (integer ids and ratings)', () => {
    const subs = [...generateSubmissions({ count: 1500, seed: 21 })]
    const path = join(tempDir(), 'release.csv')
    expect(writeReleaseCsv(path, subs, { workerStyle: 'int', ratingStyle: 'int' })).toBe(1500)
    const back = read(path)
    expect(back).toEqual(
      subs.map((s, i) => ({
        ...s,
        sourceKey: `e:${s.storyExternalId}__${s.sentenceIndex}|${s.workerExternalId}`,
        assignmentId: null,
        line: i + 2,
      })),
    )
    const text = readFileSync(path, 'utf8')
    expect(text.split('\n')[0]).toContain(',worker_quality_rating,')
    expect(text).toMatch(/\n[^,]+,[^,]+,19,2019\d{4},-?\d(\.5)?,\d,/)
  })

  it('reads back MTurk ids, float ratings and the other quality header, with CRLF', () => {
    const subs = [...generateSubmissions({ count: 400, seed: 22 })]
    const path = join(tempDir(), 'release.csv')
    writeReleaseCsv(path, subs, {
      workerStyle: 'mturk',
      ratingStyle: 'float',
      qualityHeader: 'worker_quality_assessment',
      crlf: true,
    })
    const back = read(path)
    expect(back.map((r) => r.workerExternalId)).toEqual(
      subs.map((s) => mturkWorkerId(s.workerExternalId ?? '')),
    )
    expect(back.map((r) => r.fileRating)).toEqual(subs.map((s) => s.fileRating))
    expect(back.map((r) => r.annotations)).toEqual(subs.map((s) => s.annotations))
    const text = readFileSync(path, 'utf8')
    expect(text).toContain('\r\n')
    expect(text).toMatch(/,(3|2|0|-1)\.0,/)
  })
})

describe('per-dimension CSV round trip', () => {
  it('writes ten files whose merged rows are the submissions again', () => {
    const subs = [...generateSubmissions({ count: 800, seed: 23 })]
    const dir = tempDir()
    const counts = writeDimensionCsvs(dir, subs)
    expect(counts.reduce((a, b) => a + b, 0)).toBe(
      subs.reduce((n, s) => n + s.annotations.length, 0),
    )
    const rows = Array.from({ length: 10 }, (_, i) => {
      const file = openGlucoseFile(join(dir, `dim_${i + 1}.csv`), { year: 2019 })
      expect(file.dimension).toBe(i + 1)
      return [...file.records()]
    }).flat()
    const merged = new Map(mergeByAssignment(rows).map((r) => [r.sourceKey, r]))
    expect(merged.size).toBe(subs.length)
    for (const s of subs) {
      const r = merged.get(s.sourceKey)!
      expect({ ...r, line: 0 }).toEqual({
        ...s,
        workerExternalId: mturkWorkerId(s.workerExternalId ?? ''),
        declaredFilled: null,
        flags: s.flags & ~SubmissionFlag.FilledMismatch,
      })
    }
    const dim3 = readFileSync(join(dir, 'dim_3.csv'), 'utf8').split('\n')[1] ?? ''
    expect(dim3).toMatch(
      /^[0-9a-f-]{36}__\d,[0-9a-f-]{36},3[A-Z0-9]{29},A[A-Z0-9]{13},\d{3,4},-?\d\.\d,\d,/,
    )
    expect(dim3).toContain(' # 3 # ,')
  })
})

describe('test-set CSV round trip', () => {
  it('reads back the answer key (CRLF)', () => {
    const items = [...generateTestSet({ count: 300, seed: 24 })]
    const path = join(tempDir(), 'test_set_answer_key.csv')
    writeTestCsv(path, items, { answers: true, crlf: true })
    expect(read(path)).toEqual(items.map((s, i) => ({ ...s, line: i + 2 })))
  })

  it('hides every filled answer in the no-answers file', () => {
    const items = [...generateTestSet({ count: 100, seed: 24 })]
    const path = join(tempDir(), 'test_set_no_answers.csv')
    writeTestCsv(path, items, { answers: false, crlf: false })
    const back = read(path)
    expect(back.map((r) => r.annotations.map((a) => a.dimension))).toEqual(
      items.map((s) => s.annotations.map((a) => a.dimension)),
    )
    for (const r of back) {
      for (const a of r.annotations)
        expect(a).toMatchObject({
          specificNL: 'answered',
          generalNL: 'answered',
          flags: AnnotationFlag.Hidden,
        })
      if (r.annotations.length > 0) expect(r.flags & SubmissionFlag.AnswersHidden).toBeTruthy()
    }
  })
})

describe('csvField', () => {
  it('quotes only fields that need it, doubling quotes', () => {
    expect(csvField('plain text')).toBe('plain text')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
  })
})
