import { z } from 'zod'
import { annotationFilterSchema, DEFAULT_SORT, sortSpecSchema } from '../filter'
import { call } from './define'
import { asOfSchema } from './ratings'

/**
 * One grid row: one annotation with what a reviewer reads beside it. Flat, numbers where they
 * can be (times in epoch seconds), so a block of 500 rows stays small on the wire.
 */
export interface ReviewRow {
  /** Annotation id (the grid's row id). */
  id: number
  submissionId: number
  assignmentId: string | null
  /** External worker id; null for rows without one worker (test set). */
  workerId: string | null
  storyId: string
  sentenceIndex: number
  sentence: string
  dimension: number
  specificNL: string
  generalNL: string
  /** Epoch seconds (UTC). */
  submittedAt: number | null
  /** Effective rating. */
  rating: number | null
  /** Where the effective rating comes from: 0 unrated, 1 worker timeline, 2 item rating. */
  ratingSource: number
  /** The rating the imported file gave. */
  fileRating: number | null
  /** Import flags of the annotation and of its submission (bits). */
  flags: number
  submissionFlags: number
}

/** A sort key value of the last row of a page. */
export type SortValue = number | string | null

/** Where the next page starts: the last row's sort key and id. Opaque to the page. */
export interface ReviewCursor {
  key: SortValue[]
  id: number
}

const reviewCursorSchema = z.object({
  key: z.array(z.union([z.number(), z.string().max(100_000), z.null()])).max(10),
  id: z.number().int(),
})

export interface ReviewPage {
  rows: ReviewRow[]
  /**
   * Exact number of rows the filter selects; with `counting`, only a lower bound (the rows known
   * so far), the exact number following from `review.count`.
   */
  total: number
  counting?: true
  /** Pass as `page.after` for the rows after these; null on the last page. */
  next: ReviewCursor | null
  /** Folded search tokens to highlight in the statement and rule (as text). */
  highlight: string[]
}

const pageSchema = z
  .object({
    limit: z.number().int().min(1).max(1000).default(100),
    /** Keyset paging (the grid scrolling on): rows after this cursor. */
    after: reviewCursorSchema.optional(),
    /** Offset paging (a jump): rows after skipping this many. */
    offset: z.number().int().min(0).optional(),
  })
  .refine((p) => p.after === undefined || p.offset === undefined, {
    message: 'give either after or offset',
  })

export const reviewQuerySchema = z.object({
  filter: annotationFilterSchema.default({}),
  sort: sortSpecSchema.default(DEFAULT_SORT),
  page: pageSchema.default({ limit: 100 }),
  /** Epoch ms: show and filter ratings as they stood then (rating rows recorded by it). */
  asOf: asOfSchema,
  /** `later`: answer with the rows without waiting for an exact total (the page says `counting`). */
  count: z.enum(['now', 'later']).default('now'),
})

/** The four cells of one dimension of a submission; null cells when the worker escaped it. */
export interface DimensionCells {
  dimension: number
  annotationId: number | null
  specificNL: string | null
  specificStructured: string | null
  generalNL: string | null
  generalStructured: string | null
  rating: number | null
  ratingSource: number
  flags: number
}

/** Another worker's annotation of the same sentence and dimension. */
export interface PeerAnnotation {
  annotationId: number
  submissionId: number
  workerId: string | null
  specificNL: string
  generalNL: string
  submittedAt: number | null
  rating: number | null
}

export interface StoryContext {
  storyId: string
  storyText: string
  sentenceIndex: number
  sentence: string
  /** `[start, end)` of the selected sentence in `storyText`, null when it cannot be found. */
  sentenceRange: [number, number] | null
  submission: {
    id: number
    assignmentId: string | null
    workerId: string | null
    submittedAt: number | null
    fileRating: number | null
    flags: number
    /** Always ten entries, dimension 1 to 10. */
    dimensions: DimensionCells[]
  }
  /** The dimension the peers are for. */
  dimension: number
  peers: PeerAnnotation[]
}

export interface WorkerPanel {
  /** The project's row id of the worker (what rating calls take). */
  id: number
  workerId: string
  submissions: number
  annotations: number
  /** Annotations per submission. */
  averageDimensions: number
  /** Share of this worker's annotations per dimension beside the whole crowd's, dimension 1–10. */
  dimensionProfile: Array<{ dimension: number; worker: number; crowd: number }>
  firstSubmittedAt: number | null
  lastSubmittedAt: number | null
  /** Ratings the imported files gave, with the submissions and dates they cover. */
  fileRatings: Array<{
    rating: number | null
    submissions: number
    first: number | null
    last: number | null
  }>
  /** Annotations by effective rating. */
  ratings: Array<{ rating: number | null; annotations: number }>
}

export interface WorkerMatch {
  workerId: string
  annotations: number
}

export interface StoryMatch {
  storyId: string
  annotations: number
  /** The story's first characters, to tell stories apart by more than their ids. */
  opening: string
}

/** Column layout a view may keep (ag-grid column state, reduced to what we restore). */
const viewColumnSchema = z.object({
  id: z.string().min(1).max(100),
  hidden: z.boolean().optional(),
  width: z.number().int().min(10).max(5000).optional(),
})

export const savedViewSchema = z.object({
  name: z.string().trim().min(1).max(100),
  filter: annotationFilterSchema,
  sort: sortSpecSchema.default(DEFAULT_SORT),
  columns: z.array(viewColumnSchema).max(50).optional(),
})
export type SavedViewInput = z.input<typeof savedViewSchema>

export interface SavedView extends z.output<typeof savedViewSchema> {
  /** Epoch ms. */
  savedAt: number
}

/** Rows copied as TSV at most; a larger query says so instead of freezing the page. */
const TSV_ROW_LIMIT = 10_000

export interface TsvResult {
  tsv: string
  rows: number
  total: number
  truncated: boolean
}

export const reviewCalls = {
  /** One page of the grid plus the exact total. */
  'review.query': call(reviewQuerySchema).returns<ReviewPage>(),
  /**
   * The exact total of a dialog's filter (text filters on the count thread). A newer count, or
   * `review.cancelCount` (the dialog closed), replaces an unfinished one, which answers null.
   */
  'review.count': call(
    z.object({ filter: annotationFilterSchema.default({}), asOf: asOfSchema }),
  ).returns<{
    total: number | null
  }>(),
  /** Cancels the dialog's unfinished count, which answers null; true when there was one. */
  'review.cancelCount': call(z.object({})).returns<{ cancelled: boolean }>(),
  /**
   * The exact total of the grid's filter, counted apart from its rows (text filters on a thread of
   * their own). A newer grid count replaces an unfinished one, which answers null.
   */
  'review.gridCount': call(
    z.object({ filter: annotationFilterSchema.default({}), asOf: asOfSchema }),
  ).returns<{ total: number | null }>(),
  /** The story view of one annotation: story, its submission's ten dimensions, peers. */
  'review.story': call(
    z.object({
      annotationId: z.number().int().positive(),
      dimension: z.number().int().min(1).max(10).optional(),
    }),
  ).returns<StoryContext>(),
  'review.worker': call(z.object({ workerId: z.string().min(1).max(200) })).returns<WorkerPanel>(),
  /** Type-ahead over worker ids (prefix matches first, then other matches). */
  'review.workers': call(
    z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(100).default(20) }),
  ).returns<WorkerMatch[]>(),
  /** Type-ahead over story ids (the ids that start with the query). */
  'review.stories': call(
    z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(100).default(20) }),
  ).returns<StoryMatch[]>(),
  'review.listViews': call(z.object({})).returns<SavedView[]>(),
  /** Saves a named view, replacing one of the same name. */
  'review.saveView': call(savedViewSchema).returns<SavedView>(),
  'review.deleteView': call(z.object({ name: z.string().trim().min(1).max(100) })).returns<{
    deleted: boolean
  }>(),
  /**
   * Rows as tab-separated text with a header (selected rows: filter by `annotationIds`), with the
   * ratings that stood at `asOf` (epoch ms) when given, as the grid shows them.
   */
  'review.rowsAsTsv': call(
    z.object({
      filter: annotationFilterSchema.default({}),
      sort: sortSpecSchema.default(DEFAULT_SORT),
      limit: z.number().int().min(1).max(TSV_ROW_LIMIT).default(TSV_ROW_LIMIT),
      asOf: asOfSchema,
    }),
  ).returns<TsvResult>(),
}

export const reviewEvents = {}
