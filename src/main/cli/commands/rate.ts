import { UserError } from '../../../shared/contract/errors'
import type { RatingResult, Transition } from '../../../shared/contract/ratings'
import {
  type AnnotationFilter,
  annotationFilterSchema,
  isEmptyFilter,
} from '../../../shared/filter'
import { ratingKey } from '../../../shared/ratings/key'
import { type Db, openProject } from '../../db/connection'
import { workerByExternalId } from '../../db/queries/ratings/rows'
import { localAuthor } from '../../ratings/author'
import { parseDay, parseMoment } from '../../ratings/dates'
import { rateFilter, rateSelection } from '../../ratings/rateTargets'
import { rateWorker } from '../../ratings/rate'
import { ratingScale } from '../../ratings/scale'
import {
  type Command,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
  stringList,
} from '../command'
import { plural } from '../../../shared/text'

/** Turns a domain validation failure (bad date, bad moment) into a usage error: exit code 2. */
function asUsage<T>(f: () => T): T {
  try {
    return f()
  } catch (error) {
    if (error instanceof UserError) throw new UsageError(error.message)
    throw error
  }
}

/** `--as-of TIMESTAMP` for stats and query: epoch ms, epoch s, or an ISO date/time. */
export function parseAsOfOption(values: ParsedValues): number | undefined {
  const text = optionalString(values, 'as-of')
  return text === undefined ? undefined : asUsage(() => parseMoment(text, '--as-of'))
}

function parseRating(db: Db, text: string, { clearable }: { clearable: boolean }): number | null {
  if (clearable && text === 'clear') return null
  const value = parseNumber(text, 'rating')
  const scale = ratingScale(db)
  if (!scale.some((l) => l.value === value)) {
    throw new UsageError(
      `--rating ${text} is not on this project's scale (${scale.map((l) => ratingKey(l.value)).join(', ')})`,
    )
  }
  return value
}

const filterOptions = [
  'worker',
  'story',
  'dimension',
  'sentence',
  'text',
  'from',
  'to',
  'where-rating',
  'flagged',
] as const

/** The query filters of `winnow query`; `--where-rating` stands for its `--rating`. */
function filterFrom(values: ParsedValues): AnnotationFilter {
  const filter: AnnotationFilter = {}
  const workers = stringList(values, 'worker')
  if (workers.length) filter.workers = workers
  const stories = stringList(values, 'story')
  if (stories.length) filter.stories = stories
  const dimensions = stringList(values, 'dimension').map((d) =>
    parseNumber(d, 'dimension', { integer: true }),
  )
  if (dimensions.length) filter.dimensions = dimensions
  for (const key of ['sentence', 'text', 'from', 'to'] as const) {
    const value = optionalString(values, key)
    if (value !== undefined) filter[key] = value
  }
  const ratings = stringList(values, 'where-rating').map((r) =>
    r === 'unrated' ? r : parseNumber(r, 'where-rating'),
  )
  if (ratings.length) filter.ratings = ratings
  if (values.flagged === true) filter.flagged = true
  const parsed = annotationFilterSchema.safeParse(filter)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError(`--${String(issue?.path[0] ?? 'filter')}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data
}

function ids(values: ParsedValues, name: string): number[] {
  return stringList(values, name).map((t) => {
    const n = parseNumber(t, name, { integer: true })
    if (n <= 0) throw new UsageError(`--${name} must be a positive id, got '${t}'`)
    return n
  })
}

function describeTransitions(transitions: readonly Transition[]): string {
  return transitions.map((t) => `${ratingKey(t.from)} → ${ratingKey(t.to)}: ${t.count}`).join(', ')
}

export function ratingOutput(result: RatingResult): { json: unknown; text: string } {
  if (result.preview) {
    return {
      json: { preview: true, changed: result.changed, transitions: result.transitions },
      text: `Would change ${plural(result.changed, 'annotation')}${result.changed ? ` (${describeTransitions(result.transitions)})` : ''}.`,
    }
  }
  const head = result.changeSet === null ? 'Nothing to rate' : `Change set ${result.changeSet}`
  return {
    json: { changeSet: result.changeSet, changed: result.changed },
    text: `${head}: ${plural(result.changed, 'annotation')} changed${result.changed ? ` (${describeTransitions(result.transitions)})` : ''}.`,
  }
}

export const rateCommand: Command = {
  name: 'rate',
  summary: 'Rate a worker from a commit date, annotations or submissions, or every row of a query',
  usage: [
    'winnow rate --db P --worker W --rating R --from YYYY-MM-DD [--note TEXT] [--preview] [--json]',
    '       winnow rate --db P (--submission ID | --annotation ID)... --rating R|clear [--note TEXT] [--preview] [--json]',
    '       winnow rate --db P --rating R|clear (query filters | --all) [--bulk] [--note TEXT] [--preview] [--json]',
    '  query filters: --worker W... --story S... --dimension N... --sentence TEXT --text TEXT',
    '                 --from YYYY-MM-DD --to YYYY-MM-DD --where-rating R|unrated... --flagged',
    '  --worker W --from D alone rates the worker; add --bulk to rate those rows as items instead.',
  ].join('\n'),
  options: {
    ...dbOption,
    rating: { type: 'string' },
    note: { type: 'string' },
    preview: { type: 'boolean' },
    submission: { type: 'string', multiple: true },
    annotation: { type: 'string', multiple: true },
    bulk: { type: 'boolean' },
    all: { type: 'boolean' },
    worker: { type: 'string', multiple: true },
    story: { type: 'string', multiple: true },
    dimension: { type: 'string', multiple: true },
    sentence: { type: 'string' },
    text: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    'where-rating': { type: 'string', multiple: true },
    flagged: { type: 'boolean' },
  },
  run(values) {
    const dbPath = requireString(values, 'db')
    const ratingText = requireString(values, 'rating')
    const note = optionalString(values, 'note')
    const preview = values.preview === true
    const annotationIds = ids(values, 'annotation')
    const submissionIds = ids(values, 'submission')
    const usedFilters = filterOptions.filter((k) => values[k] !== undefined)
    const workers = stringList(values, 'worker')
    const workerMode =
      values.bulk !== true &&
      workers.length === 1 &&
      values.from !== undefined &&
      usedFilters.every((k) => k === 'worker' || k === 'from')
    if (annotationIds.length + submissionIds.length > 0 && usedFilters.length > 0) {
      throw new UsageError('--annotation/--submission cannot be combined with query filters')
    }
    const filter =
      workerMode || annotationIds.length + submissionIds.length > 0 ? null : filterFrom(values)
    if (filter && isEmptyFilter(filter) && values.all !== true) {
      throw new UsageError(
        'name what to rate: --worker with --from, --annotation, --submission, query filters, or --all',
      )
    }
    const fromDay = workerMode
      ? asUsage(() => parseDay(requireString(values, 'from'), '--from'))
      : 0
    const db = openProject(dbPath)
    try {
      const who = { author: localAuthor(), ...(note ? { note } : {}), preview }
      let result: RatingResult
      if (workerMode) {
        const value = parseRating(db, ratingText, { clearable: false }) as number
        const worker = workerByExternalId(db, workers[0] as string)
        if (!worker)
          throw new UserError({
            type: 'not-found',
            code: 'no-such-worker',
            message: `No worker '${workers[0]}' in ${dbPath}.`,
          })
        result = rateWorker(db, { ...who, workerId: worker.id, value, from: fromDay })
      } else if (filter === null) {
        const value = parseRating(db, ratingText, { clearable: true })
        result = rateSelection(db, { annotationIds, submissionIds }, { ...who, value })
      } else {
        const value = parseRating(db, ratingText, { clearable: true })
        result = rateFilter(db, filter, { ...who, value })
      }
      return ratingOutput(result)
    } finally {
      db.close()
    }
  },
}
