import { z } from 'zod'
import { ANNOTATION_FLAG_NAMES, flagLabel } from './glucose/flags'

/**
 * The filter vocabulary of annotations, shared by the review grid, `winnow query`, bulk rating,
 * policies and exports. Values of one field combine with OR, fields combine with AND; an absent
 * field or an empty list does not filter.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  const m = DAY.exec(text)
  if (!m) return false
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return date.toISOString().slice(0, 10) === text
}

/** Epoch seconds of the day's first instant (UTC). */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000
}

/** `YYYY-MM-DD` (UTC) of an epoch-seconds time. */
export function formatDay(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10)
}

const daySchema = z.string().refine(isDay, 'expected a date YYYY-MM-DD')
const externalId = z.string().min(1).max(200)
const rowId = z.number().int().positive()

/** A rating on the project's scale, or `unrated`. */
const ratingValueSchema = z.union([z.number().finite(), z.literal('unrated')])
export type RatingValue = z.infer<typeof ratingValueSchema>

export const annotationFilterSchema = z
  .strictObject({
    /** Worker ids as the files and MTurk write them. */
    workers: z.array(externalId).max(1000).optional(),
    /** Story ids as the files write them. */
    stories: z.array(externalId).max(1000).optional(),
    dimensions: z.array(z.number().int().min(1).max(10)).max(10).optional(),
    /** Contained in the selected sentence (case-insensitive for ASCII; % and _ are literal). */
    sentence: z.string().max(500).optional(),
    /** Full-text search over the specific statement and the general rule. */
    text: z.string().max(500).optional(),
    /** Submitted on or after this day (UTC). */
    from: daySchema.optional(),
    /** Submitted on or before this day (UTC). */
    to: daySchema.optional(),
    /** Effective rating. */
    ratings: z.array(ratingValueSchema).max(50).optional(),
    /** Only annotations with an import flag. */
    flagged: z.boolean().optional(),
    /** Only annotations with one of these import flags (`NlUnparsed` …). */
    flagKinds: z.array(z.enum(ANNOTATION_FLAG_NAMES)).max(20).optional(),
    submissionIds: z.array(rowId).max(10_000).optional(),
    /** Explicit rows, e.g. a selection in the grid. */
    annotationIds: z.array(rowId).max(10_000).optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: '`from` is after `to`',
    path: ['from'],
  })
export type AnnotationFilter = z.infer<typeof annotationFilterSchema>

/** Grid columns a page can be sorted by; the names are the row fields. */
export const sortColumns = [
  'id',
  'submissionId',
  'workerId',
  'storyId',
  'sentenceIndex',
  'sentence',
  'dimension',
  'specificNL',
  'generalNL',
  'submittedAt',
  'rating',
  'flags',
] as const
export type SortColumn = (typeof sortColumns)[number]

/** Sorts an index keeps in order, so any result size pages fast. */
export const indexedSortColumns: readonly SortColumn[] = [
  'id',
  'workerId',
  'storyId',
  'dimension',
  'submittedAt',
  'rating',
]

/** Other sorts order the whole result in memory, so they are refused above this many rows. */
export const UNINDEXED_SORT_LIMIT = 100_000

export const sortSpecSchema = z.object({
  column: z.enum(sortColumns),
  direction: z.enum(['asc', 'desc']).default('asc'),
})
export type SortSpec = z.infer<typeof sortSpecSchema>

export const DEFAULT_SORT: SortSpec = { column: 'id', direction: 'asc' }

function uniqueSorted<T extends string | number>(values: readonly T[]): T[] {
  return [...new Set(values)].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  )
}

/**
 * The shortest sentence text the trigram index finds; shorter text is matched by reading every
 * sentence.
 */
export const SENTENCE_INDEX_MIN = 3

/** Whether `filter`'s sentence text is too short for the trigram index (a read of every sentence). */
export function sentenceScanned(filter: AnnotationFilter): boolean {
  const text = normalizeFilter(filter).sentence
  return text !== undefined && [...text].length < SENTENCE_INDEX_MIN
}

/**
 * The canonical form of a filter: trimmed text, lists deduplicated and sorted, empty fields
 * dropped. Two filters that select the same rows by the same words compare equal.
 */
export function normalizeFilter(filter: AnnotationFilter): AnnotationFilter {
  const out: AnnotationFilter = {}
  const lists = [
    'workers',
    'stories',
    'dimensions',
    'flagKinds',
    'submissionIds',
    'annotationIds',
  ] as const
  for (const key of lists) {
    const values: ReadonlyArray<string | number> | undefined = filter[key]
    if (values && values.length > 0) (out as Record<string, unknown>)[key] = uniqueSorted(values)
  }
  for (const key of ['sentence', 'text'] as const) {
    const value = filter[key]?.trim()
    if (value) out[key] = value
  }
  if (filter.from) out.from = filter.from
  if (filter.to) out.to = filter.to
  if (filter.ratings && filter.ratings.length > 0) {
    const numbers = uniqueSorted(filter.ratings.filter((r): r is number => r !== 'unrated'))
    out.ratings = filter.ratings.includes('unrated') ? [...numbers, 'unrated'] : numbers
  }
  if (filter.flagged) out.flagged = true
  return out
}

/** A stable string for a filter (history, caches, saved views). */
export function filterKey(filter: AnnotationFilter): string {
  return JSON.stringify(normalizeFilter(filter))
}

export function isEmptyFilter(filter: AnnotationFilter): boolean {
  return Object.keys(normalizeFilter(filter)).length === 0
}

/** One removable chip above the grid: one value of one field. */
export interface FilterChip {
  field: keyof AnnotationFilter
  value?: string | number
  label: string
}

function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…` : id
}

/** The chips of a filter, in a fixed field order. Labels are plain text. */
export function filterChips(filter: AnnotationFilter): FilterChip[] {
  const f = normalizeFilter(filter)
  const chips: FilterChip[] = []
  for (const w of f.workers ?? []) chips.push({ field: 'workers', value: w, label: `worker ${w}` })
  for (const s of f.stories ?? [])
    chips.push({ field: 'stories', value: s, label: `story ${shortId(s)}` })
  for (const d of f.dimensions ?? [])
    chips.push({ field: 'dimensions', value: d, label: `dimension ${d}` })
  if (f.sentence) chips.push({ field: 'sentence', label: `sentence contains “${f.sentence}”` })
  if (f.text) chips.push({ field: 'text', label: `text “${f.text}”` })
  if (f.from) chips.push({ field: 'from', label: `from ${f.from}` })
  if (f.to) chips.push({ field: 'to', label: `to ${f.to}` })
  for (const r of f.ratings ?? []) {
    const label = r === 'unrated' ? 'unrated' : `rating ${String(r).replace('-', '−')}`
    chips.push({ field: 'ratings', value: r, label })
  }
  if (f.flagged) chips.push({ field: 'flagged', label: 'flagged' })
  for (const k of f.flagKinds ?? [])
    chips.push({ field: 'flagKinds', value: k, label: `flag: ${flagLabel(k)}` })
  const n = (k: 'submissionIds' | 'annotationIds') => f[k]?.length ?? 0
  if (n('submissionIds')) {
    chips.push({
      field: 'submissionIds',
      label: `${n('submissionIds')} submission${n('submissionIds') === 1 ? '' : 's'}`,
    })
  }
  if (n('annotationIds')) {
    chips.push({
      field: 'annotationIds',
      label: `${n('annotationIds')} selected annotation${n('annotationIds') === 1 ? '' : 's'}`,
    })
  }
  return chips
}

/** The filter without one chip (a chip without a value removes the whole field). */
export function removeChip(filter: AnnotationFilter, chip: FilterChip): AnnotationFilter {
  const out: Record<string, unknown> = { ...normalizeFilter(filter) }
  const current = out[chip.field]
  if (chip.value !== undefined && Array.isArray(current)) {
    const rest = (current as unknown[]).filter((v) => v !== chip.value)
    if (rest.length > 0) out[chip.field] = rest
    else delete out[chip.field]
  } else {
    delete out[chip.field]
  }
  return out
}

/** One line for a filter, e.g. for a change set's description: `worker A1 · dimension 2`. */
export function describeFilter(filter: AnnotationFilter): string {
  const chips = filterChips(filter)
  return chips.length === 0 ? 'all annotations' : chips.map((c) => c.label).join(' · ')
}
