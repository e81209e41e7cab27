import { UserError } from '../../../../shared/contract/errors'
import type {
  DimensionCells,
  PeerAnnotation,
  StoryContext,
} from '../../../../shared/contract/review'
import type { Db } from '../../connection'
import { all, get } from '../../connection'
import { sql } from '../../sql'

/** Other workers' annotations shown under the story view, at most. */
const PEER_LIMIT = 200

interface Anchor {
  submissionId: number
  dimension: number
  storyId: number
  sentenceIndex: number
}

function anchor(db: Db, annotationId: number): Anchor {
  const row = get<Anchor>(
    db,
    sql`SELECT submission_id AS submissionId, dimension, story_id AS storyId,
          sentence_index AS sentenceIndex
        FROM annotations WHERE id = ${annotationId}`,
  )
  if (!row) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-annotation',
      message: `No annotation ${annotationId}.`,
    })
  }
  return row
}

/** Where the selected sentence sits in the story text, so the page can mark it (as text). */
function sentenceRange(storyText: string, sentence: string): [number, number] | null {
  if (sentence === '') return null
  const at = storyText.indexOf(sentence)
  return at < 0 ? null : [at, at + sentence.length]
}

/**
 * The story view of one annotation: the story with its selected sentence, the submission's ten
 * dimensions (null cells where the worker escaped one), and the other workers' annotations of the
 * same sentence and dimension (`dimension` picks another one of the ten).
 */
export function storyContext(db: Db, annotationId: number, dimension?: number): StoryContext {
  const a = anchor(db, annotationId)
  const story = get<{ externalId: string; text: string; sentence: string | null }>(
    db,
    sql`SELECT st.external_id AS externalId, st.text,
          (SELECT text FROM sentences WHERE story_id = st.id AND idx = ${a.sentenceIndex}) AS sentence
        FROM stories st WHERE st.id = ${a.storyId}`,
  )
  const submission = get<{
    id: number
    assignmentId: string | null
    workerId: string | null
    submittedAt: number | null
    fileRating: number | null
    flags: number
  }>(
    db,
    sql`SELECT sub.id, sub.assignment_id AS assignmentId, w.external_id AS workerId,
          sub.submitted_at AS submittedAt, sub.file_rating AS fileRating, sub.flags
        FROM submissions sub LEFT JOIN workers w ON w.id = sub.worker_id
        WHERE sub.id = ${a.submissionId}`,
  )
  if (!story || !submission)
    throw new Error(`annotation ${annotationId} lost its story or submission`)
  const filled = all<DimensionCells>(
    db,
    sql`SELECT a.dimension, a.id AS annotationId, t.specific_nl AS specificNL,
          t.specific_structured AS specificStructured, t.general_nl AS generalNL,
          t.general_structured AS generalStructured, a.rating, a.rating_source AS ratingSource, a.flags
        FROM annotations a JOIN annotation_texts t ON t.annotation_id = a.id
        WHERE a.id BETWEEN ${a.submissionId * 16} AND ${a.submissionId * 16 + 15}`,
  )
  // A submission's annotations are the ids submission × 16 + dimension (a CHECK of the schema).
  const byDimension = new Map(filled.map((cells) => [cells.dimension, cells]))
  const dimensions = Array.from({ length: 10 }, (_, i): DimensionCells => {
    return (
      byDimension.get(i + 1) ?? {
        dimension: i + 1,
        annotationId: null,
        specificNL: null,
        specificStructured: null,
        generalNL: null,
        generalStructured: null,
        rating: null,
        ratingSource: 0,
        flags: 0,
      }
    )
  })
  const peerDimension = dimension ?? a.dimension
  const peers = all<PeerAnnotation>(
    db,
    sql`SELECT a.id AS annotationId, a.submission_id AS submissionId, w.external_id AS workerId,
          t.specific_nl AS specificNL, t.general_nl AS generalNL, a.submitted_at AS submittedAt, a.rating
        FROM annotations a INDEXED BY ann_story
        JOIN annotation_texts t ON t.annotation_id = a.id
        LEFT JOIN workers w ON w.id = a.worker_id
        WHERE a.story_id = ${a.storyId} AND a.sentence_index = ${a.sentenceIndex}
          AND a.dimension = ${peerDimension} AND a.submission_id <> ${a.submissionId}
        ORDER BY a.submitted_at, a.id
        LIMIT ${PEER_LIMIT}`,
  )
  const sentence = story.sentence ?? ''
  return {
    storyId: story.externalId,
    storyText: story.text,
    sentenceIndex: a.sentenceIndex,
    sentence,
    sentenceRange: sentenceRange(story.text, sentence),
    submission: { ...submission, dimensions },
    dimension: peerDimension,
    peers,
  }
}
