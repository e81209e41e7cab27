/** Tab-separated values for the clipboard, readable by spreadsheets. Pure. */

/** Quotes a cell only when it holds a tab, a line break or a quote (the spreadsheet convention). */
export type TsvValue = string | number | boolean | null | undefined

export function tsvCell(value: TsvValue): string {
  if (value === null || value === undefined) return ''
  const s = typeof value === 'string' ? value : String(value)
  return /[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export interface TsvColumn<R> {
  header: string
  value: (row: R) => TsvValue
}

export function toTsv<R>(columns: readonly TsvColumn<R>[], rows: readonly R[]): string {
  const lines = [columns.map((c) => tsvCell(c.header)).join('\t')]
  for (const row of rows) lines.push(columns.map((c) => tsvCell(c.value(row))).join('\t'))
  return lines.join('\n') + '\n'
}
