import type { ReviewCursor, ReviewRow } from '../../../shared/contract/review'
import {
  type AnnotationFilter,
  type RatingValue,
  type SortSpec,
  DEFAULT_SORT,
  annotationFilterSchema,
  isDay,
  sortColumns,
} from '../../../shared/filter'
import { openProject } from '../../db/connection'
import { queryAnnotations } from '../../db/queries/review/query'
import { pastAnnotations } from '../../ratings/asOf'
import { moreRowsToTsv, rowsToTsv } from '../../review/tsv'
import {
  type Command,
  type OptionSpec,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
  stringList,
} from '../command'
import { parseAsOfOption } from './rate'

import { formatCount, plural } from '../../../shared/text'

/** The filter options of `winnow query` (the same vocabulary as the grid). */
export const filterOptionSpec: OptionSpec = {
  worker: { type: 'string', multiple: true },
  story: { type: 'string', multiple: true },
  dimension: { type: 'string', multiple: true },
  sentence: { type: 'string' },
  text: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  rating: { type: 'string', multiple: true },
  flagged: { type: 'boolean' },
}

/** Sort names the command line accepts besides the grid's column names. */
const SORT_ALIASES: Record<string, SortSpec['column']> = {
  annotationId: 'id',
  worker: 'workerId',
  story: 'storyId',
  date: 'submittedAt',
}

function day(values: ParsedValues, name: 'from' | 'to'): string | undefined {
  const value = optionalString(values, name)
  if (value !== undefined && !isDay(value))
    throw new UsageError(`--${name} must be a date YYYY-MM-DD, got '${value}'`)
  return value
}

/** Builds the filter from `--worker … --flagged`; bad values are usage errors. */
export function filterFromOptions(values: ParsedValues, ratingOption = 'rating'): AnnotationFilter {
  const filter: AnnotationFilter = {}
  const workers = stringList(values, 'worker')
  if (workers.length > 0) filter.workers = workers
  const stories = stringList(values, 'story')
  if (stories.length > 0) filter.stories = stories
  const dimensions = stringList(values, 'dimension').map((d) => {
    const n = parseNumber(d, 'dimension', { integer: true })
    if (n < 1 || n > 10) throw new UsageError(`--dimension must be 1 to 10, got '${d}'`)
    return n
  })
  if (dimensions.length > 0) filter.dimensions = dimensions
  const sentence = optionalString(values, 'sentence')
  if (sentence !== undefined) filter.sentence = sentence
  const text = optionalString(values, 'text')
  if (text !== undefined) filter.text = text
  const from = day(values, 'from')
  if (from !== undefined) filter.from = from
  const to = day(values, 'to')
  if (to !== undefined) filter.to = to
  const ratings = stringList(values, ratingOption).map((r): RatingValue =>
    r === 'unrated' ? r : parseNumber(r, ratingOption),
  )
  if (ratings.length > 0) filter.ratings = ratings
  if (values.flagged === true) filter.flagged = true
  const parsed = annotationFilterSchema.safeParse(filter)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError(
      `${String(issue?.path[0] ?? 'filter')}: ${issue?.message ?? 'invalid filter'}`,
    )
  }
  return parsed.data
}

function parseSort(text: string | undefined): SortSpec {
  if (text === undefined) return DEFAULT_SORT
  const [name = '', direction = 'asc', ...rest] = text.split(':')
  const column = SORT_ALIASES[name] ?? sortColumns.find((c) => c === name)
  if (!column || rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
    throw new UsageError(
      `--sort must be COLUMN[:desc] with COLUMN one of ${sortColumns.join(', ')}, got '${text}'`,
    )
  }
  return { column, direction }
}

function count(values: ParsedValues, name: string, fallback: number): number {
  const text = optionalString(values, name)
  if (text === undefined) return fallback
  const n = parseNumber(text, name, { integer: true })
  if (n < 0) throw new UsageError(`--${name} must not be negative, got '${text}'`)
  return n
}

/** The row `winnow query --json` prints (field names of the issue; dates as ISO text). */
function cliRow(r: ReviewRow) {
  return {
    annotationId: r.id,
    submissionId: r.submissionId,
    assignmentId: r.assignmentId,
    workerId: r.workerId,
    storyId: r.storyId,
    sentenceIndex: r.sentenceIndex,
    sentence: r.sentence,
    dimension: r.dimension,
    specificNL: r.specificNL,
    generalNL: r.generalNL,
    submittedAt: r.submittedAt === null ? null : new Date(r.submittedAt * 1000).toISOString(),
    rating: r.rating,
  }
}

/** Page size of the reads behind one command (the API's own page limit). */
const READ = 1000

export const queryCommand: Command = {
  name: 'query',
  summary: 'List annotations matching filters (the review grid’s query), with the exact total',
  usage:
    'winnow query --db P [--worker W]... [--story S]... [--dimension N]... [--sentence TEXT]\n' +
    '         [--text TEXT] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--rating R|unrated]... [--flagged]\n' +
    '         [--as-of TIMESTAMP] [--sort COL[:desc]] [--limit N] [--offset N] [--json | --tsv]\n' +
    '  --tsv: only the rows, tab-separated with a header line, as a copy of rows in the app',
  options: {
    ...dbOption,
    ...filterOptionSpec,
    sort: { type: 'string' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    'as-of': { type: 'string' },
    tsv: { type: 'boolean' },
  },
  run(values, _positionals, io) {
    const dbPath = requireString(values, 'db')
    if (values.tsv === true && values.json === true)
      throw new UsageError('--tsv and --json cannot be combined')
    const filter = filterFromOptions(values)
    const sort = parseSort(optionalString(values, 'sort'))
    const limit = count(values, 'limit', 100)
    const offset = count(values, 'offset', 0)
    const asOf = parseAsOfOption(values)
    // Not memory-mapped: a listing of every row reads most of the project, and each mapped page
    // read stays in the process's memory until the end.
    const db = openProject(dbPath, { memoryMap: false })
    try {
      const past = pastAnnotations(db, asOf)
      // The first read jumps to the offset; the rest continue after the last row's key.
      const first = queryAnnotations(db, {
        filter,
        sort,
        limit: Math.max(1, Math.min(READ, limit)),
        offset,
        past,
      })
      // Every form is written page by page as it is read, so every row of a large project goes
      // out in bounded memory; --json as the one document it always was, its rows a page at a time.
      const json = values.json === true
      let shown = 0
      let pending = ''
      const take = (page: readonly ReviewRow[]): void => {
        if (json) {
          const rows = page.map((r) => JSON.stringify(cliRow(r))).join(',')
          if (rows !== '') io.stdout(shown === 0 ? rows : `,${rows}`)
        } else if (page.length > 0) {
          if (pending !== '') io.stdout(pending)
          pending = moreRowsToTsv(page)
        }
        shown += page.length
      }
      if (json) io.stdout(`{"total":${JSON.stringify(first.total)},"rows":[`)
      else pending = rowsToTsv([])
      if (limit > 0) take(first.rows)
      let after: ReviewCursor | null = first.next
      while (shown < limit && after) {
        const page = queryAnnotations(db, {
          filter,
          sort,
          limit: Math.min(READ, limit - shown),
          after,
          past,
        })
        take(page.rows)
        after = page.next
      }
      if (json) {
        io.stdout(']}\n')
        return { json: null, text: '', jsonWritten: true }
      }
      const text =
        values.tsv === true
          ? pending
          : `${pending}${formatCount(shown)} of ${plural(first.total, 'annotation')}`
      return { json: null, text }
    } finally {
      db.close()
    }
  },
}
