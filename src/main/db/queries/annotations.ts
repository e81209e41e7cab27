import type { ReviewRow } from '../../../shared/contract/review'
import type { Db } from '../connection'
import { all } from '../connection'
import { type SqlFragment, sql } from '../sql'
import { inList } from './review/filter'

/** The statement reading grid rows for annotation ids (any order). */
export function annotationRowsStatement(
  ids: readonly number[],
  relation: SqlFragment = sql.raw('annotations'),
): SqlFragment {
  return sql`SELECT a.id, a.submission_id AS submissionId, sub.assignment_id AS assignmentId,
          w.external_id AS workerId, st.external_id AS storyId, a.sentence_index AS sentenceIndex,
          coalesce(se.text, '') AS sentence, a.dimension, t.specific_nl AS specificNL,
          t.general_nl AS generalNL, a.submitted_at AS submittedAt, a.rating,
          a.rating_source AS ratingSource, a.file_rating AS fileRating, a.flags,
          sub.flags AS submissionFlags
        FROM ${relation} a
        JOIN submissions sub ON sub.id = a.submission_id
        JOIN stories st ON st.id = a.story_id
        JOIN annotation_texts t ON t.annotation_id = a.id
        LEFT JOIN workers w ON w.id = a.worker_id
        LEFT JOIN sentences se ON se.story_id = a.story_id AND se.idx = a.sentence_index
        WHERE a.id IN ${inList(ids)}`
}

/** Grid rows for annotation ids, in the order of `ids` (missing ids are skipped). */
export function annotationRows(
  db: Db,
  ids: readonly number[],
  relation?: SqlFragment,
): ReviewRow[] {
  if (ids.length === 0) return []
  const rows = all<ReviewRow>(db, annotationRowsStatement(ids, relation))
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => byId.get(id)).filter((row): row is ReviewRow => row !== undefined)
}
