import { SubmissionFlag } from '../../../shared/glucose/flags'
import type { CsvRecord } from '../csv'
import type { ImportedAnnotation, ImportedSubmission } from '../types'
import { RELEASE_COLUMNS } from './columns'
import {
  annotationFromCells,
  detach,
  type RowContext,
  summaryFlags,
  workerSubmission,
} from './context'

export interface RowMapper {
  /** Fields every row must have. */
  width: number
  map(record: CsvRecord): ImportedSubmission
}

/**
 * The 49-column release layout: one row per assignment. Files from the older layout carry an
 * `assignment_id` column too (`assignmentColumn`), which then keys the rows.
 */
export function releaseMapper(ctx: RowContext, assignmentColumn?: number): RowMapper {
  const a = assignmentColumn ?? -1
  // Physical index of each logical release column.
  const ix = RELEASE_COLUMNS.map((_, k) => (a !== -1 && k >= a ? k + 1 : k))
  const col = (k: number): number => ix[k] ?? k
  return {
    width: RELEASE_COLUMNS.length + (a === -1 ? 0 : 1),
    map(record) {
      const f = record.fields
      const cell = (k: number): string => f[col(k)] ?? ''
      const row = {
        experimentId: detach(cell(0)),
        storyExternalId: ctx.storyId(record, col(1)),
        worker: ctx.workerId(record, col(2)),
        submittedAt: ctx.date(record, col(3)),
        fileRating: ctx.rating(record, col(4)),
        sentenceIndex: ctx.sentenceIndex(record, col(5)),
        storyText: cell(6),
        selected: cell(7),
        assignmentId: a === -1 ? null : ctx.assignmentId(record, a),
        declaredFilled: ctx.filledCount(record, col(48)),
      }
      const annotations: ImportedAnnotation[] = []
      for (let n = 1; n <= 10; n++) {
        const b = 4 * n + 4
        const ann = annotationFromCells(n, cell(b), cell(b + 1), cell(b + 2), cell(b + 3))
        if (ann) annotations.push(ann)
      }
      let flags = summaryFlags(annotations, true)
      if (row.declaredFilled !== annotations.length) flags |= SubmissionFlag.FilledMismatch
      const unique =
        row.assignmentId === null
          ? ctx.uniqueKey(`e:${row.experimentId}|${row.worker}`, record.line)
          : ctx.uniqueKey(`a:${row.assignmentId}`, record.line, false)
      return workerSubmission(row, { annotations, flags, unique }, record.line)
    },
  }
}
