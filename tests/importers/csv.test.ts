import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type CsvReaderOptions,
  type CsvRecord,
  completeUtf8End,
  firstInvalidUtf8,
  locateField,
  openCsv,
} from '../../src/main/importers/csv'
import { InputError } from '../../src/main/importers/errors'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()

function fileWith(content: string | Buffer, name = 'data.csv'): string {
  const path = join(tempDir(), name)
  writeFileSync(path, content)
  return path
}

function readAll(path: string, opts?: CsvReaderOptions): CsvRecord[] {
  const reader = openCsv(path, opts)
  const out: CsvRecord[] = []
  for (let r = reader.next(); r !== null; r = reader.next()) out.push(r)
  reader.close()
  return out
}

function errorOf(path: string, opts?: CsvReaderOptions): InputError {
  try {
    readAll(path, opts)
  } catch (e) {
    if (e instanceof InputError) return e
    throw e
  }
  throw new Error('expected an InputError')
}

const CHUNKS = [1, 2, 3, 4, 5, 7, 13, 64, 1 << 20]

describe('openCsv', () => {
  it('reads quoted fields, doubled quotes, empty fields and embedded line breaks', () => {
    const path = fileWith('a,b,c\r\n"x ""y""",,"1,2"\n"multi\nline",z,\n')
    for (const chunkBytes of CHUNKS) {
      const records = readAll(path, { chunkBytes })
      expect(records.map((r) => r.fields)).toEqual([
        ['a', 'b', 'c'],
        ['x "y"', '', '1,2'],
        ['multi\nline', 'z', ''],
      ])
      expect(records.map((r) => r.line)).toEqual([1, 2, 3])
      expect(records.map((r) => r.offset)).toEqual([0, 7, 24])
    }
  })

  it('skips a UTF-8 BOM and counts byte offsets of multi-byte text', () => {
    const text = '\uFEFFname,note\né,"ü ✓"\r\n😀,x\n'
    const path = fileWith(text)
    const bytes = Buffer.from(text)
    for (const chunkBytes of CHUNKS) {
      const records = readAll(path, { chunkBytes })
      expect(records.map((r) => r.fields)).toEqual([
        ['name', 'note'],
        ['é', 'ü ✓'],
        ['😀', 'x'],
      ])
      // Each offset points at the record's first byte in the file.
      expect(records.map((r) => bytes.subarray(r.offset, r.offset + 2).toString('latin1'))).toEqual(
        [
          'na',
          Buffer.from('é').toString('latin1'),
          Buffer.from('😀').subarray(0, 2).toString('latin1'),
        ],
      )
    }
  })

  it('treats a file without a final newline and blank lines around records alike', () => {
    const a = readAll(fileWith('h1,h2\n\n1,2\r\n\r\n3,4'))
    const b = readAll(fileWith('h1,h2\n1,2\n3,4\n\n'))
    expect(a.map((r) => r.fields)).toEqual(b.map((r) => r.fields))
    expect(a.map((r) => r.line)).toEqual([1, 3, 5])
  })

  it('keeps a CRLF split across chunks and a doubled quote split across chunks intact', () => {
    // Chunk size 4 puts the boundary inside "\r\n" and inside '""'.
    const path = fileWith('ab,\r\n"x""y"\r\nz\r\n')
    for (const chunkBytes of [1, 2, 3, 4, 5, 6]) {
      expect(readAll(path, { chunkBytes }).map((r) => r.fields)).toEqual([
        ['ab', ''],
        ['x"y'],
        ['z'],
      ])
    }
  })

  it('reads a record much longer than a chunk', () => {
    const fields = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `"q,${i}"` : `f${i}`))
    const path = fileWith(`${fields.join(',')}\nlast\n`)
    const records = readAll(path, { chunkBytes: 7 })
    expect(records[0]?.fields).toHaveLength(5000)
    expect(records[0]?.fields[3]).toBe('q,3')
    expect(records[1]).toEqual({
      fields: ['last'],
      line: 2,
      offset: Buffer.byteLength(fields.join(',')) + 1,
    })
  })

  it('reports size and bytes read so far', () => {
    const path = fileWith('a,b\n'.repeat(100))
    const reader = openCsv(path, { chunkBytes: 64 })
    expect(reader.size).toBe(400)
    reader.next()
    expect(reader.bytesRead()).toBeGreaterThan(0)
    expect(reader.bytesRead()).toBeLessThan(400)
    while (reader.next() !== null);
    expect(reader.bytesRead()).toBe(400)
  })

  it('agrees with csv-parse on random CSV, at every chunk size', () => {
    const char = fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\r', 'é', '✓', '😀', 'z', '0')
    const field = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(''))
    const record = fc.array(field, { minLength: 1, maxLength: 5 })
    const file = fc.record({
      records: fc.array(record, { minLength: 1, maxLength: 12 }),
      crlf: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
      quoteAll: fc.boolean(),
      finalEol: fc.boolean(),
      chunkBytes: fc.constantFrom(1, 2, 3, 5, 7, 11, 1 << 20),
    })
    fc.assert(
      fc.property(file, ({ records, crlf, quoteAll, finalEol, chunkBytes }) => {
        const text = records
          .map((fields, i) => {
            const line = fields
              .map((f) =>
                quoteAll || /[",\r\n]/.test(f) || (fields.length === 1 && f === '')
                  ? `"${f.replace(/"/g, '""')}"`
                  : f,
              )
              .join(',')
            const eol = crlf[i] ? '\r\n' : '\n'
            return i < records.length - 1 || finalEol ? line + eol : line
          })
          .join('')
        const path = fileWith(text, 'random.csv')
        const ours = readAll(path, { chunkBytes })
        const oracle: unknown = parse(Buffer.from(text), {
          record_delimiter: ['\r\n', '\n'],
          relax_column_count: true,
          skip_empty_lines: true,
        })
        expect(ours.map((r) => r.fields)).toEqual(oracle)
        expect(ours.map((r) => r.fields)).toEqual(records)
        // The line of a record is one plus the line breaks before its first byte.
        const bytes = Buffer.from(text)
        for (const r of ours) {
          const before = bytes.subarray(0, r.offset).toString()
          expect(r.line).toBe(before.split('\n').length)
        }
      }),
      { numRuns: 400 },
    )
  })
})

describe('openCsv errors', () => {
  it('points at the opening quote of an unterminated quoted field', () => {
    const path = fileWith('a,b\nc,"never closed\nmore\n')
    for (const chunkBytes of [3, 1 << 20]) {
      const e = errorOf(path, { chunkBytes })
      expect(e.code).toBe('unterminated-quote')
      expect([e.line, e.column]).toEqual([2, 3])
      expect(e.message).toBe(
        `data.csv:2:3: unterminated quoted field (opened at line 2, column 3); expected a closing '"'`,
      )
      expect(e.path).toBe(path)
      expect(e.info).toMatchObject({
        type: 'input',
        code: 'unterminated-quote',
        file: 'data.csv',
        line: 2,
        column: 3,
      })
    }
  })

  it('refuses a stray quote inside an unquoted field', () => {
    const e = errorOf(fileWith('a,b\nxy,ab"c\n'))
    expect(e.code).toBe('stray-quote')
    expect([e.line, e.column]).toEqual([2, 6])
    expect(e.message).toMatch(/^data\.csv:2:6: stray quote in unquoted field/)
  })

  it('says what it found after a closing quote', () => {
    const e = errorOf(fileWith('a,b\n"ok"x,b\n'))
    expect(e.code).toBe('bad-after-quote')
    expect([e.line, e.column]).toEqual([2, 5])
    expect(e.reason).toBe(`expected ',' or end of line after closing quote, found 'x'`)
  })

  it('counts columns in characters, not bytes or UTF-16 units', () => {
    const e = errorOf(fileWith('h\n😀é,"x"y\n'))
    expect([e.line, e.column]).toEqual([2, 7])
  })

  it('finds the exact invalid UTF-8 byte, also across chunk boundaries', () => {
    const content = Buffer.concat([
      Buffer.from('name,city\nJosé,'),
      Buffer.from([0x4d, 0xfc, 0x6e]),
      Buffer.from('chen\n'),
    ])
    for (const chunkBytes of [1, 2, 3, 7, 16, 1 << 20]) {
      const e = errorOf(fileWith(content), { chunkBytes })
      expect(e.code).toBe('invalid-utf8')
      expect([e.line, e.column]).toEqual([2, 7])
      expect(e.reason).toMatch(/^invalid UTF-8 byte 0xFC at byte offset 17;/)
    }
  })

  it('reports a multi-byte character cut off at the end of the file', () => {
    const e = errorOf(fileWith(Buffer.concat([Buffer.from('a,b\nc,'), Buffer.from([0xc3])])), {
      chunkBytes: 2,
    })
    expect(e.code).toBe('invalid-utf8')
    expect(e.reason).toMatch(/0xC3 at byte offset 6 \(truncated at end of file\)/)
  })

  it('refuses binary files', () => {
    const e = errorOf(fileWith(Buffer.from('a,b\nc,d\0e\n')))
    expect(e.code).toBe('binary-file')
    expect([e.line, e.column]).toEqual([2, 4])
    expect(e.reason).toMatch(/^binary file \(NUL byte at byte offset 7\)/)
  })

  it('calls a file binary when a NUL byte comes before bytes that are not UTF-8', () => {
    // The start of an executable: a magic number, NUL padding, then bytes that are not UTF-8.
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0xd0, 0x3e])
    const e = errorOf(fileWith(elf))
    expect(e.code).toBe('binary-file')
    expect([e.line, e.column]).toEqual([1, 8])
    expect(e.reason).toMatch(/^binary file \(NUL byte at byte offset 7\)/)
    // Latin-1 text stays an encoding problem.
    expect(errorOf(fileWith(Buffer.from('a,b\nCaf\xe9,1\n', 'latin1'))).code).toBe('invalid-utf8')
  })

  it('limits field length, naming the limit and a likely missing quote', () => {
    const long = 'x'.repeat(100)
    const unquoted = errorOf(fileWith(`a,b\n1,${long}\n`), { maxFieldBytes: 64, chunkBytes: 16 })
    expect(unquoted.code).toBe('field-too-long')
    expect(unquoted.reason).toBe('field longer than 64 bytes')
    expect([unquoted.line, unquoted.column]).toEqual([2, 3])
    const quoted = errorOf(fileWith(`a,b\n1,"${long}\n${long}\n`), { maxFieldBytes: 1024 / 8 })
    expect(quoted.code).toBe('field-too-long')
    expect(quoted.reason).toMatch(/opened at line 2, column 3: a missing closing quote\?/)
    // Multi-byte text counts in bytes: 30 × 3 bytes is over 64.
    expect(errorOf(fileWith(`a\n${'✓'.repeat(30)}\n`), { maxFieldBytes: 64 }).code).toBe(
      'field-too-long',
    )
  })

  it('refuses a file whose lines end in CR only', () => {
    const e = errorOf(fileWith('h1,h2\r' + 'a,b\r'.repeat(40000)), { chunkBytes: 4096 })
    expect(e.code).toBe('bad-line-endings')
    expect([e.line, e.column]).toEqual([1, 6])
  })

  it('refuses an empty file, and one with only a BOM or blank lines', () => {
    for (const content of ['', '\uFEFF', '\n\r\n\n']) {
      const e = errorOf(fileWith(content))
      expect(e.code).toBe('empty-file')
      expect(e.message).toBe('data.csv:1:1: empty file; expected a header row')
    }
  })

  it('turns a missing file into an input error', () => {
    const e = errorOf(join(tempDir(), 'nope.csv'))
    expect(e.code).toBe('unreadable')
    expect(e.message).toBe('nope.csv: no such file')
  })
})

describe('locateField', () => {
  it('finds where a field starts, across quoted line breaks', () => {
    const path = fileWith('h1,h2,h3\nab,"c\nd""e",fé\n')
    const records = readAll(path)
    const row = records[1]!
    expect(locateField(path, row, 0)).toEqual({ line: 2, column: 1 })
    expect(locateField(path, row, 1)).toEqual({ line: 2, column: 4 })
    expect(locateField(path, row, 2)).toEqual({ line: 3, column: 7 })
    // Past the last field: the end of the record.
    expect(locateField(path, row, 5)).toEqual({ line: 3, column: 9 })
  })
})

describe('UTF-8 helpers', () => {
  it('holds back an incomplete character at the end of a chunk', () => {
    const b = Buffer.from('a✓')
    expect(completeUtf8End(b, 0, b.length)).toBe(4)
    expect(completeUtf8End(b, 0, 3)).toBe(1)
    expect(completeUtf8End(b, 0, 2)).toBe(1)
    expect(completeUtf8End(Buffer.from('abc'), 0, 3)).toBe(3)
  })

  it('finds the first byte of an invalid sequence like a strict decoder would refuse', () => {
    expect(firstInvalidUtf8(Buffer.from('plain ✓ text'))).toBe(-1)
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1) // overlong
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1) // surrogate
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xe2, 0x9c]))).toBe(2) // truncated
    expect(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0) // above U+10FFFF
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        let valid = true
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes)
        } catch {
          valid = false
        }
        expect(firstInvalidUtf8(bytes) === -1).toBe(valid)
      }),
      { numRuns: 2000 },
    )
  })
})
