import { SubmissionFlag } from '../../../shared/glucose/flags'
import type { ImportedSubmission } from '../types'
import { annotationFromCells, type RowContext, summaryFlags, workerSubmission } from './context'
import type { RowMapper } from './release'

/**
 * A per-dimension file (`dim_<d>.csv`): one row per (assignment, filled dimension d). Each row
 * becomes a submission keyed by its assignment with the one annotation; the database merges the
 * rows of one assignment across the ten files. The model prompt and gold columns are derived
 * from the others and are not imported.
 */
export function dimensionMapper(ctx: RowContext, dimension: number): RowMapper {
  return {
    width: 18,
    map(record) {
      const f = record.fields
      const cell = (k: number): string => f[k] ?? ''
      const row = {
        experimentId: cell(0),
        storyExternalId: ctx.storyId(record, 1),
        assignmentId: ctx.assignmentId(record, 2),
        worker: ctx.workerId(record, 3),
        submittedAt: ctx.date(record, 4),
        fileRating: ctx.rating(record, 5),
        sentenceIndex: ctx.sentenceIndex(record, 6),
        storyText: cell(7),
        selected: cell(8),
        declaredFilled: null,
      }
      const ann = annotationFromCells(dimension, cell(9), cell(10), cell(11), cell(13))
      const annotations = ann ? [ann] : []
      // One row shows one dimension: whether the assignment had more is only known after merging.
      const flags = summaryFlags(annotations, false)
      const unique = ctx.uniqueKey(`a:${row.assignmentId}`, record.line, false)
      return workerSubmission(row, { annotations, flags, unique }, record.line)
    },
  }
}

/**
 * Merges the rows of per-dimension files into one submission per assignment, as the database
 * does (first row wins for submission fields), and adds the flags only the whole can show.
 */
export function mergeByAssignment(records: Iterable<ImportedSubmission>): ImportedSubmission[] {
  const byKey = new Map<string, ImportedSubmission>()
  for (const r of records) {
    const seen = byKey.get(r.sourceKey)
    if (!seen) {
      byKey.set(r.sourceKey, { ...r, annotations: [...r.annotations] })
      continue
    }
    for (const a of r.annotations) {
      if (!seen.annotations.some((b) => b.dimension === a.dimension)) seen.annotations.push(a)
    }
    seen.flags |= r.flags
  }
  const merged = [...byKey.values()]
  for (const s of merged) {
    s.annotations.sort((x, y) => x.dimension - y.dimension)
    s.flags &= ~(SubmissionFlag.NoDimension | SubmissionFlag.SingleDimension)
    s.flags |= summaryFlags(s.annotations, true)
  }
  return merged
}
