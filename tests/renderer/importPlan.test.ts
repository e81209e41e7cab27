import { describe, expect, it } from 'vitest'
import type { DetectedFile } from '../../src/shared/contract/imports'
import {
  addFiles,
  asImportResult,
  importRequestFiles,
  needsYear,
  parseYear,
  unrecognised,
} from '../../src/renderer/src/features/import/importPlan'

function detected(id: string, format: DetectedFile['format'], needs = false): DetectedFile {
  return {
    ref: { kind: 'path', path: `/d/${id}` },
    name: id,
    bytes: 10,
    format,
    needsYear: needs,
    problem: null,
  }
}

describe('import plan', () => {
  it('asks for a year only when a file needs one, and accepts only plausible years', () => {
    const files = addFiles(
      [],
      [detected('a', 'glucose-release'), detected('b', 'glucose-dimension', true)],
    )
    expect(needsYear(files)).toBe(true)
    expect(needsYear(files.slice(0, 1))).toBe(false)
    expect(parseYear('2019')).toBe(2019)
    expect(parseYear(' 2019 ')).toBe(2019)
    expect(parseYear('19')).toBeNull()
    expect(parseYear('3000')).toBeNull()
    expect(parseYear('20x9')).toBeNull()
  })
  it('lists a file once', () => {
    const once = addFiles([], [detected('a', 'glucose-release')])
    expect(addFiles(once, [detected('a', 'glucose-release')])).toHaveLength(1)
  })
  it('sends every file in one request, with the format only where the user chose another', () => {
    const [a, b, c] = [
      detected('a', 'glucose-release'),
      detected('b', null),
      detected('c', 'glucose-release'),
    ]
    const files = [
      { detected: a, override: null },
      { detected: b, override: 'glucose-test' as const },
      { detected: c, override: 'glucose-release' as const },
    ]
    expect(importRequestFiles(files)).toEqual([
      { ref: a.ref },
      { ref: b.ref, format: 'glucose-test' },
      { ref: c.ref },
    ])
  })
  it('holds the import back while a file has no format, detected or chosen', () => {
    const b = detected('b', null)
    expect(unrecognised([{ detected: b, override: null }])).toHaveLength(1)
    expect(unrecognised([{ detected: b, override: 'glucose-test' }])).toEqual([])
  })
  it('checks untyped job results', () => {
    const r = { files: [], submissions: 2, annotations: 5 }
    expect(asImportResult(r)).toBe(r)
    expect(asImportResult({ files: 1 })).toBeNull()
    expect(asImportResult(null)).toBeNull()
  })
})

describe('error parts', () => {
  it('shows the location once', async () => {
    const { errorParts, errorLine } = await import('../../src/renderer/src/lib/errors')
    const info = {
      type: 'input' as const,
      code: 'ragged-row',
      message: 'a.csv:2:6: expected 49 fields',
      file: 'a.csv',
      line: 2,
      column: 6,
    }
    expect(errorParts(info)).toEqual({ location: 'a.csv:2:6', message: 'expected 49 fields' })
    expect(errorLine(info)).toBe('a.csv:2:6: expected 49 fields')
    expect(errorParts({ ...info, message: 'no prefix' })).toEqual({
      location: 'a.csv:2:6',
      message: 'no prefix',
    })
    expect(errorParts({ type: 'internal', code: 'x', message: 'm' })).toEqual({
      location: '',
      message: 'm',
    })
  })
})
