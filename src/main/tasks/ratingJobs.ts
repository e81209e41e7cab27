import type { RatingResult } from '../../shared/contract/ratings'
import { ratingKey } from '../../shared/ratings/key'
import { plural } from '../../shared/text'
import { changeSetById } from '../db/queries/changes/history'
import { changeSetWroteMoreThan } from '../db/queries/ratings/rows'
import { revertChangeSet } from '../ratings/revert'
import type { Session } from '../session'
import { QUIET } from '../jobs/writeHooks'
import { runWriteJob } from './writeJob'
import { type RateRequest, rate } from './writeTasks'

/**
 * Annotations a rating change may touch on the calling thread: a few thousand rows are written
 * too fast to notice; beyond that the change runs as a job on a worker thread.
 */
const SMALL_WRITE = 2_000

/** At most how many annotations a whole submission holds (one per dimension). */
const ANNOTATIONS_PER_SUBMISSION = 10

const changedData = (result: RatingResult): boolean => result.changeSet !== null

function describeWrite(result: RatingResult): string {
  if (result.preview) return `Would change ${plural(result.changed, 'annotation')}`
  return result.changeSet === null
    ? 'Nothing to change'
    : `Change set ${result.changeSet}: ${plural(result.changed, 'annotation')} changed rating`
}

/**
 * A rating of annotations, or its preview: a grid selection of a handful of rows on this thread, a
 * query or a large selection as a job. Resolves once the change set is committed.
 */
export async function rateAsNeeded(session: Session, request: RateRequest): Promise<RatingResult> {
  const { target } = request
  const small =
    target.kind === 'selection' &&
    target.annotationIds.length + target.submissionIds.length * ANNOTATIONS_PER_SUBMISSION <=
      SMALL_WRITE
  if (small) {
    const result = rate(session.project().db, request, QUIET)
    if (result.changeSet !== null) session.dataChanged()
    return result
  }
  const what =
    request.value === null ? 'Clearing item ratings' : `Rating ${ratingKey(request.value)}`
  const rows =
    target.kind === 'query'
      ? 'the query’s annotations'
      : plural(target.annotationIds.length + target.submissionIds.length, 'selected row')
  const title = request.preview ? `Previewing ${what.toLowerCase()}: ${rows}` : `${what}: ${rows}`
  return runWriteJob(session, { kind: 'rate', request, title, summary: describeWrite, changedData })
    .result
}

/** A revert: as a job when the change set moved or wrote more than a few thousand ratings. */
export async function revertAsNeeded(
  session: Session,
  changeSetId: number,
  author: string,
  { preview = false }: { preview?: boolean } = {},
): Promise<RatingResult> {
  const { db } = session.project()
  const target = changeSetById(db, changeSetId)
  const large =
    target !== undefined &&
    (target.changed > SMALL_WRITE || changeSetWroteMoreThan(db, changeSetId, SMALL_WRITE))
  if (!large) {
    // Unknown or small: here, where an unknown id fails at once with its message.
    const result = revertChangeSet(db, changeSetId, { author, preview })
    if (result.changeSet !== null) session.dataChanged()
    return result
  }
  return runWriteJob(session, {
    kind: 'revert',
    request: { changeSetId, author, preview },
    title: `${preview ? 'Previewing the revert of' : 'Reverting'} change set ${changeSetId}`,
    summary: describeWrite,
    changedData,
  }).result
}

/** Every annotation's effective rating rebuilt from the rating tables, as a job. */
export function recomputeAsJob(session: Session): Promise<{ changed: number }> {
  return runWriteJob(session, {
    kind: 'recompute',
    request: {},
    title: 'Recomputing effective ratings',
    summary: ({ changed }) => `${plural(changed, 'annotation')} corrected`,
  }).result
}
