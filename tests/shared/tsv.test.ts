import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toTsv, tsvCell } from '../../src/shared/tsv'

/**
 * Reads TSV as a spreadsheet reads pasted text: tab-separated cells, `"` quoting with `""` for a
 * quote (a quoted cell may hold tabs and line breaks), and a leading apostrophe that marks a
 * cell as text, shown without it.
 */
function spreadsheetParse(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let i = 0
  const cell = (raw: string) => row.push(raw.startsWith("'") ? raw.slice(1) : raw)
  while (i < text.length) {
    let value = ''
    if (text[i] === '"') {
      i++
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quote')
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"'
            i += 2
            continue
          }
          i++
          break
        }
        value += text[i++]
      }
    } else {
      while (i < text.length && text[i] !== '\t' && text[i] !== '\n') value += text[i++]
    }
    cell(value)
    if (text[i] === '\t') {
      i++
    } else {
      rows.push(row)
      row = []
      i++
    }
  }
  return rows
}

const tricky = fc.constantFrom(
  '\t',
  '\n',
  '\r',
  '\r\n',
  '"',
  "'",
  '=',
  '+',
  '-',
  '@',
  ' ',
  'é',
  '😀',
)
const cellText = fc
  .array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 6 })
  .map((parts) => parts.join(''))

describe('one TSV encoder for every copy', () => {
  it('gives a spreadsheet its cells back, whatever they hold', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((width) =>
          fc.array(fc.array(cellText, { minLength: width, maxLength: width }), {
            minLength: 1,
            maxLength: 5,
          }),
        ),
        (rows) => {
          const width = rows[0]?.length ?? 0
          const columns = Array.from({ length: width }, (_, c) => ({
            header: `c${c}`,
            value: (row: string[]) => row[c],
          }))
          const text = toTsv(columns, rows)
          expect(spreadsheetParse(text)).toEqual([columns.map((c) => c.header), ...rows])
        },
      ),
      { numRuns: 500 },
    )
  })

  it('keeps text a spreadsheet would run as a formula as text', () => {
    for (const formula of ['=HYPERLINK("x")', '+1', '-2+3', '@SUM(A1)']) {
      expect(tsvCell(formula)).toMatch(/^"?'/)
    }
    expect(tsvCell('\t=1')).toBe('"\'\t=1"')
    expect(tsvCell(-1)).toBe('-1')
    expect(tsvCell(1.5)).toBe('1.5')
    expect(tsvCell(null)).toBe('')
    expect(tsvCell('plain')).toBe('plain')
  })
})
