import type { ReviewRow } from '../../shared/contract/review'
import { formatDay } from '../../shared/filter'
import { type TsvColumn, toTsv, tsvLines } from '../../shared/tsv'

/** The columns a copy of a whole query carries, in order (the grid's reading order). */
const COLUMNS: readonly TsvColumn<ReviewRow>[] = [
  { header: 'annotationId', value: (r) => r.id },
  { header: 'submissionId', value: (r) => r.submissionId },
  { header: 'assignmentId', value: (r) => r.assignmentId },
  { header: 'workerId', value: (r) => r.workerId },
  { header: 'storyId', value: (r) => r.storyId },
  { header: 'sentenceIndex', value: (r) => r.sentenceIndex },
  { header: 'sentence', value: (r) => r.sentence },
  { header: 'dimension', value: (r) => r.dimension },
  { header: 'specificNL', value: (r) => r.specificNL },
  { header: 'generalNL', value: (r) => r.generalNL },
  {
    header: 'submittedAt',
    value: (r) => (r.submittedAt === null ? null : formatDay(r.submittedAt)),
  },
  { header: 'rating', value: (r) => r.rating },
]

/** Rows as tab-separated text with a header line, lines ending in `\n`. */
export function rowsToTsv(rows: readonly ReviewRow[]): string {
  return toTsv(COLUMNS, rows)
}

/** The rows of a later page of the same copy: lines without the header. */
export function moreRowsToTsv(rows: readonly ReviewRow[]): string {
  return tsvLines(COLUMNS, rows)
}
