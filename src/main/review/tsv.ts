import type { ReviewRow } from '../../shared/contract/review'
import { formatDay } from '../../shared/filter'

/** The columns a copy carries, in order (the grid's reading order). */
const COLUMNS: Array<[string, (row: ReviewRow) => string | number | null]> = [
  ['annotationId', (r) => r.id],
  ['submissionId', (r) => r.submissionId],
  ['assignmentId', (r) => r.assignmentId],
  ['workerId', (r) => r.workerId],
  ['storyId', (r) => r.storyId],
  ['sentenceIndex', (r) => r.sentenceIndex],
  ['sentence', (r) => r.sentence],
  ['dimension', (r) => r.dimension],
  ['specificNL', (r) => r.specificNL],
  ['generalNL', (r) => r.generalNL],
  ['submittedAt', (r) => (r.submittedAt === null ? null : formatDay(r.submittedAt))],
  ['rating', (r) => r.rating],
]

/**
 * One TSV cell. Tabs and line breaks would split the row, so they become spaces. Text written by
 * strangers that a spreadsheet would run as a formula (= + - @ first) gets a leading apostrophe.
 */
export function tsvCell(value: string | number | null): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  const flat = value.replace(/[\t\r\n]+/g, ' ')
  return /^[=+\-@]/.test(flat) ? `'${flat}` : flat
}

/** Rows as tab-separated text with a header line, lines ending in `\n`. */
export function rowsToTsv(rows: readonly ReviewRow[]): string {
  const lines = [COLUMNS.map(([name]) => name).join('\t')]
  for (const row of rows) lines.push(COLUMNS.map(([, get]) => tsvCell(get(row))).join('\t'))
  return lines.join('\n') + '\n'
}
