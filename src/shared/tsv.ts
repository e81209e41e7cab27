/**
 * Tab-separated values for the clipboard and `winnow query`, read back cell for cell by
 * spreadsheets. Every copy of rows goes through here. Pure.
 */

export type TsvValue = string | number | boolean | null | undefined

export interface TsvColumn<R> {
  header: string
  value: (row: R) => TsvValue
}

/**
 * One cell. Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, or a tab or
 * carriage return before one) is crowd text, never a formula: it gets the apostrophe that marks a
 * cell as text, as does text that starts with an apostrophe, which would otherwise lose it. A cell
 * holding a tab, a line break or a quote is quoted (`""` for a quote) so it stays one cell.
 * Numbers are written as they are: a rating of -1 stays a number.
 */
export function tsvCell(value: TsvValue): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'string') return String(value)
  const text = /^[=+\-@'\t\r]/.test(value) ? `'${value}` : value
  return /[\t\n\r"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A header line and one line per row, each ending in `\n`. */
export function toTsv<R>(columns: readonly TsvColumn<R>[], rows: readonly R[]): string {
  return columns.map((c) => tsvCell(c.header)).join('\t') + '\n' + tsvLines(columns, rows)
}

/** One line per row, each ending in `\n`, without the header (a later page of a long copy). */
export function tsvLines<R>(columns: readonly TsvColumn<R>[], rows: readonly R[]): string {
  let text = ''
  for (const row of rows) text += columns.map((c) => tsvCell(c.value(row))).join('\t') + '\n'
  return text
}
