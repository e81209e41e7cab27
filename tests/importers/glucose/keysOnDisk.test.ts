import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/main/importers/errors'
import { type GlucoseFile, openGlucoseFile } from '../../../src/main/importers/glucose/open'
import { generateSubmissions } from '../../../src/main/synth/glucose'
import { writeDimensionCsvs, writeReleaseCsv } from '../../helpers/csv-writers'
import { useTempDir } from '../../helpers/tmp'

/**
 * A file's keys move from memory to a temporary database on disk past `keysInMemory`; a repeated
 * key must get the same rename and warning on either side of the move.
 */

const tempDir = useTempDir()

/** `lines` (header first) with data rows repeated: before the move, across it and long after. */
function withRepeats(lines: string[]): string[] {
  const [header, ...rows] = lines
  const row = (i: number): string => rows[i] ?? ''
  return [
    header ?? '',
    row(0),
    row(1),
    row(0), // a repeat while the keys are in memory
    row(2),
    row(3),
    row(1),
    row(4),
    row(5),
    row(0), // a third occurrence, the first after the move
    ...rows.slice(6, 20),
    row(1),
    row(7),
    row(19),
    ...rows.slice(20),
    row(0),
  ]
}

function writeWithRepeats(path: string): void {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
  writeFileSync(path, withRepeats(lines).join('\n') + '\n')
}

function readAll(file: GlucoseFile): { keys: string[]; flags: number[] } {
  const rows = [...file.records()]
  return { keys: rows.map((r) => r.sourceKey), flags: rows.map((r) => r.flags) }
}

describe('keys seen in a file, in memory and on disk', () => {
  it('renames and warns about repeated release keys the same once they move to disk', () => {
    const path = join(tempDir(), 'release.csv')
    writeReleaseCsv(path, generateSubmissions({ count: 30, seed: 29 }), {
      workerStyle: 'int',
      ratingStyle: 'int',
    })
    writeWithRepeats(path)

    const inMemory = openGlucoseFile(path)
    const expected = readAll(inMemory)
    expect(inMemory.keyStore()).toBe('memory')

    const spilled = openGlucoseFile(path, { keysInMemory: 3 })
    expect(readAll(spilled)).toEqual(expected)
    expect(spilled.warnings).toEqual(inMemory.warnings)
    // The store was used, then closed with the file's end.
    expect(spilled.keyStore()).toBe('closed')

    // What the repeats are: renamed in order, on both sides of the move.
    const first = expected.keys[0] ?? ''
    expect(expected.keys.filter((k) => k.startsWith(first))).toEqual([
      first,
      `${first}#2`,
      `${first}#3`,
      `${first}#4`,
    ])
    expect(inMemory.warnings.filter((w) => w.code === 'duplicate-key')).toHaveLength(7)
  })

  it('merges repeated assignment keys with the same warnings once they move to disk', () => {
    const dir = tempDir()
    writeDimensionCsvs(dir, generateSubmissions({ count: 80, seed: 31 }))
    const path = join(dir, 'dim_1.csv')
    writeWithRepeats(path)

    const inMemory = openGlucoseFile(path, { year: 2019 })
    const expected = readAll(inMemory)
    const spilled = openGlucoseFile(path, { year: 2019, keysInMemory: 2 })
    expect(readAll(spilled)).toEqual(expected)
    expect(spilled.warnings).toEqual(inMemory.warnings)
    expect(spilled.keyStore()).toBe('closed')
    expect(inMemory.warnings.filter((w) => w.code === 'duplicate-key')).toHaveLength(7)
  })

  it('closes the store on disk when a row after the move is bad', () => {
    const path = join(tempDir(), 'release.csv')
    writeReleaseCsv(path, generateSubmissions({ count: 20, seed: 37 }), {
      workerStyle: 'int',
      ratingStyle: 'int',
    })
    const lines = readFileSync(path, 'utf8').split('\n')
    // Line 12: the rating column (5th) holds a word.
    const fields = (lines[11] ?? '').split(',')
    fields[4] = 'great'
    lines[11] = fields.join(',')
    writeFileSync(path, lines.join('\n'))

    const file = openGlucoseFile(path, { keysInMemory: 3 })
    let failed: unknown = null
    try {
      for (const _ of file.records()) void _
    } catch (error) {
      failed = error
    }
    expect(failed).toBeInstanceOf(InputError)
    expect((failed as InputError).line).toBe(12)
    expect(file.keyStore()).toBe('closed')
  })

  it('closes the store on disk when the reader gives up early', () => {
    const path = join(tempDir(), 'release.csv')
    writeReleaseCsv(path, generateSubmissions({ count: 20, seed: 41 }), {
      workerStyle: 'int',
      ratingStyle: 'int',
    })
    const file = openGlucoseFile(path, { keysInMemory: 3 })
    let read = 0
    for (const _ of file.records()) {
      void _
      if (++read === 10) {
        expect(file.keyStore()).toBe('disk')
        break
      }
    }
    expect(file.keyStore()).toBe('closed')
  })
})
