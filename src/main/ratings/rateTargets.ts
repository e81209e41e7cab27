import { UserError } from '../../shared/contract/errors'
import type { RatingResult } from '../../shared/contract/ratings'
import { type AnnotationFilter, describeFilter } from '../../shared/filter'
import type { Db } from '../db/connection'
import { matchingAnnotationIds } from '../db/queries/review/query'
import {
  annotationsById,
  annotationsOfSubmissions,
  missingIds,
  nothing,
  union,
} from '../db/queries/ratings/selection'
import type { SqlFragment } from '../db/sql'
import { plural } from '../../shared/text'
import { type Who, rateItems } from './rate'
import { assertOnScale } from './scale'
import { QUIET, type WriteHooks } from '../jobs/writeHooks'

type Options = Who & { value: number | null; preview?: boolean }

/** Item ratings for annotations and whole submissions named by id (a grid selection). */
export function rateSelection(
  db: Db,
  ids: { annotationIds: readonly number[]; submissionIds: readonly number[] },
  options: Options,
  hooks: WriteHooks = QUIET,
): RatingResult {
  if (options.value !== null) assertOnScale(db, options.value)
  const parts: SqlFragment[] = []
  const what: string[] = []
  for (const [table, list, word, build] of [
    ['annotations', ids.annotationIds, 'annotation', annotationsById],
    ['submissions', ids.submissionIds, 'submission', annotationsOfSubmissions],
  ] as const) {
    if (list.length === 0) continue
    const missing = missingIds(db, table, list)
    if (missing.length > 0) {
      throw new UserError({
        type: 'not-found',
        code: `no-such-${word}`,
        message: `No ${word} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}.`,
      })
    }
    parts.push(build(list))
    what.push(list.length === 1 ? `${word} ${list[0]}` : plural(list.length, word))
  }
  if (parts.length === 0) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'nothing-selected',
      message: 'Name at least one annotation or submission.',
    })
  }
  const kind = ids.annotationIds.length + ids.submissionIds.length > 1 ? 'bulk' : 'manual'
  return rateItems(
    db,
    { annotations: union(parts), kind, what: what.join(' and ') },
    options,
    hooks,
  )
}

/** Every annotation a filter selects (the review grid's query), as one bulk change set. */
export function rateFilter(
  db: Db,
  filter: AnnotationFilter,
  options: Options,
  hooks: WriteHooks = QUIET,
): RatingResult {
  if (options.value !== null) assertOnScale(db, options.value)
  const annotations = matchingAnnotationIds(db, filter) ?? nothing
  return rateItems(
    db,
    { annotations, kind: 'bulk', what: `query ${describeFilter(filter)}` },
    options,
    hooks,
  )
}
