/**
 * The covering indexes of migrations 004 to 006, as the review planner sees them: each one's columns in
 * order (the rowid follows). Together they let any filter seek, and each holds the columns the
 * other filters test, so a test rarely reads the table.
 *
 * Only `ann_rating` (and the small `ann_flagged`) hold `rating`: every index holding it must be
 * rewritten when a worker rating change moves thousands of effective ratings, so rating filters
 * seek through `ann_rating`, which reaches the worker, the date and the dimension right after the
 * rating. It holds only those (migration 005): each column more costs every rating write, and
 * filters on flags, stories or sentences drive elsewhere.
 *
 * Bulk writes rebuild them afterwards (bulk.ts): inserting a million rows into six indexes in
 * random order thrashes the page cache, where a rebuild sorts each index once.
 */
export const REVIEW_INDEXES = {
  ann_worker: ['worker_id', 'submitted_at', 'dimension', 'flags', 'story_id', 'sentence_index'],
  ann_rating: ['rating', 'worker_id', 'submitted_at', 'dimension'],
  ann_dimension: ['dimension', 'worker_id', 'submitted_at', 'flags', 'story_id', 'sentence_index'],
  ann_date: ['submitted_at', 'id', 'dimension', 'worker_id', 'flags', 'story_id', 'sentence_index'],
  ann_story: ['story_id', 'sentence_index', 'dimension', 'worker_id', 'submitted_at', 'flags'],
  /** Partial: only rows with `flags > 0` (about 1%). */
  ann_flagged: [
    'dimension',
    'rating',
    'worker_id',
    'submitted_at',
    'story_id',
    'sentence_index',
    'flags',
  ],
} as const satisfies Record<string, readonly string[]>

export type IndexName = keyof typeof REVIEW_INDEXES
export type IndexColumn = (typeof REVIEW_INDEXES)[IndexName][number]

/** Columns that may hold NULL (test-set rows have no worker or date; unrated rows no rating). */
export const NULLABLE_COLUMNS: ReadonlySet<IndexColumn> = new Set([
  'worker_id',
  'submitted_at',
  'rating',
])
