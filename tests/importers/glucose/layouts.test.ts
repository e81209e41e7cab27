import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { mergeByAssignment } from '../../../src/main/importers/glucose/dimension'
import { openGlucoseFile, probeGlucoseFile } from '../../../src/main/importers/glucose/open'
import type { ImportedSubmission } from '../../../src/main/importers/types'
import { AnnotationFlag, SubmissionFlag } from '../../../src/shared/glucose/flags'

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../../fixtures/glucose/${name}`, import.meta.url))

function readAll(
  name: string,
  year?: number,
): { records: ImportedSubmission[]; warnings: string[] } {
  const file = openGlucoseFile(fixture(name), year === undefined ? {} : { year })
  const records = [...file.records()]
  return { records, warnings: file.warnings.map((w) => w.message) }
}

const S1 = '11111111-1111-4111-8111-111111111111'
const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 1000

describe('release layout', () => {
  it('maps each row to a submission with its filled dimensions', () => {
    const file = openGlucoseFile(fixture('release.csv'))
    expect(file.format).toBe('glucose-release')
    expect(file.header).toHaveLength(49)
    const [first] = [...file.records()]
    expect(first).toMatchObject({
      sourceKey: `e:${S1}__1|AFAKE0000001`,
      assignmentId: null,
      workerExternalId: 'AFAKE0000001',
      workerRef: null,
      storyExternalId: S1,
      sentences: [{ index: 1, text: 'She found a kite in the grass.' }],
      sentenceIndex: 1,
      submittedAt: day(2019, 9, 5),
      acceptedAt: null,
      fileRating: 2,
      declaredFilled: 2,
      line: 2,
      flags: 0,
      raw: null,
    })
    expect(first?.storyText).toMatch(/^Kate went to the park\. She found a kite.*flew away\.$/)
    expect(first?.annotations.map((a) => [a.dimension, a.flags])).toEqual([
      [1, 0],
      [7, 0],
    ])
    expect(first?.annotations[0]?.generalStructured).toContain(
      '{Somewhere_A ||that is a park||}_[object1]',
    )
  })

  it('renames a repeated (experiment, worker) pair, warns, and flags a wrong number_filled_in', () => {
    const { records, warnings } = readAll('release.csv')
    const second = records[1]!
    expect(second.sourceKey).toBe(`e:${S1}__1|AFAKE0000001#2`)
    expect(second.flags & SubmissionFlag.DuplicateKey).toBeTruthy()
    expect(second.declaredFilled).toBe(3)
    expect(second.annotations).toHaveLength(2)
    expect(second.flags & SubmissionFlag.FilledMismatch).toBeTruthy()
    expect(second.annotations[0]?.specificNL).toBe(
      'Kate is in the park >Enables> Kate finds  a kite in the grass',
    )
    expect(warnings).toEqual([
      `line 3: e:${S1}__1|AFAKE0000001 occurred before in this file; imported as e:${S1}__1|AFAKE0000001#2`,
    ])
  })

  it('flags dirty but valid cells without losing a byte', () => {
    const { records } = readAll('release.csv')
    const single = records[2]!
    expect(single.fileRating).toBe(-1)
    expect(single.flags & SubmissionFlag.SingleDimension).toBeTruthy()
    expect(single.annotations[0]?.flags).toBe(AnnotationFlag.UnderscoreLost)
    expect(single.annotations[0]?.generalNL).toContain('Something_A ((a baked good))')
    const dirty = records[3]!
    expect(dirty.fileRating).toBe(1.5)
    const [d2, d4] = dirty.annotations
    expect(d2?.flags).toBe(AnnotationFlag.PartlyEscaped)
    expect(d2?.generalNL).toBe('escaped')
    expect(d4?.flags).toBe(AnnotationFlag.ConnectorMismatch)
    expect(dirty.flags & SubmissionFlag.AnnotationFlagged).toBeTruthy()
  })
})

describe('per-dimension layout', () => {
  it('takes the dimension from the header and asks for a year the dates lack', () => {
    expect(probeGlucoseFile(fixture('dim_3.csv'))).toEqual({
      format: 'glucose-dimension',
      dimension: 3,
      needsYear: true,
      problem: null,
    })
    const file = openGlucoseFile(fixture('dim_3.csv'))
    expect(file.dimension).toBe(3)
    const rows = file.records()
    expect(() => rows.next()).toThrow(
      expect.objectContaining({
        code: 'year-required',
        line: 2,
        column: 122,
        field: 'submission_time_normalized',
      }),
    )
  })

  it('reads rows keyed by assignment, one dimension each, with the given year', () => {
    const { records } = readAll('dim_3.csv', 2019)
    expect(records.map((r) => [r.sourceKey, r.submittedAt, r.fileRating])).toEqual([
      ['a:3FAKEASSIGNMENT000000000000001', day(2019, 9, 17), 2],
      ['a:3FAKEASSIGNMENT000000000000002', day(2019, 10, 5), 3],
    ])
    expect(records[0]).toMatchObject({
      assignmentId: '3FAKEASSIGNMENT000000000000001',
      declaredFilled: null,
      flags: 0,
    })
    expect(records[0]?.annotations.map((a) => a.dimension)).toEqual([3])
  })

  it('merges rows of one assignment across files and only then flags a single dimension', () => {
    const { records } = readAll('dim_3.csv', 2019)
    const other: ImportedSubmission = {
      ...records[0]!,
      annotations: [{ ...records[0]!.annotations[0]!, dimension: 1 }],
    }
    const merged = mergeByAssignment([...records, other])
    expect(merged).toHaveLength(2)
    expect(merged[0]?.annotations.map((a) => a.dimension)).toEqual([1, 3])
    expect(merged[0]!.flags & SubmissionFlag.SingleDimension).toBe(0)
    expect(merged[1]!.flags & SubmissionFlag.SingleDimension).toBeTruthy()
  })
})

describe('test-set layout', () => {
  it('reads the answer key (CRLF) with all sentences and three references per cell', () => {
    const { records } = readAll('test_key.csv')
    expect(records.map((r) => r.line)).toEqual([2, 3, 4])
    const first = records[0]!
    expect(first).toMatchObject({
      sourceKey: `t:${S1}__1`,
      workerExternalId: null,
      workerRef: 'AFAKE0000001****AFAKE0000002****AFAKE0000003',
      storyExternalId: S1,
      sentenceIndex: 1,
      submittedAt: null,
      fileRating: null,
    })
    expect(first.sentences).toHaveLength(5)
    expect(first.sentences[2]).toEqual({ index: 2, text: 'Kate flew the kite, laughing.' })
    expect(first.storyText).toBe(first.sentences.map((s) => s.text).join(' '))
    expect(first.annotations.map((a) => [a.dimension, a.flags])).toEqual([
      [1, 0],
      [6, AnnotationFlag.ReferenceCount | AnnotationFlag.EmptyReference],
    ])
    expect(first.annotations[1]?.generalNL).toContain('********')
    expect(records[1]?.annotations[0]?.flags).toBe(AnnotationFlag.ExtraConnector)
    expect(records[1]!.flags & SubmissionFlag.ConnectorProblem).toBeTruthy()
    expect(records[2]?.annotations).toEqual([])
    expect(records[2]!.flags & SubmissionFlag.NoDimension).toBeTruthy()
  })

  it('keeps hidden answers as flagged annotations', () => {
    const { records } = readAll('test_no_answers.csv')
    const first = records[0]!
    expect(first.annotations.map((a) => [a.dimension, a.specificNL, a.generalNL, a.flags])).toEqual(
      [
        [1, 'answered', 'answered', AnnotationFlag.Hidden],
        [6, 'answered', 'answered', AnnotationFlag.Hidden],
      ],
    )
    expect(first.flags & SubmissionFlag.AnswersHidden).toBeTruthy()
  })
})
