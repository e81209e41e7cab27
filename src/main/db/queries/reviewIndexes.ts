/**
 * The covering indexes of migration 004, as the review planner sees them: each one's columns in
 * order (the rowid follows). Every index holding `rating` keeps one worker's rows together, so a
 * worker rating change rewrites few index pages.
 */
export const REVIEW_INDEXES = {
  ann_worker: ['worker_id', 'submitted_at', 'dimension', 'rating', 'flags'],
  ann_rating: ['rating', 'worker_id', 'submitted_at', 'dimension', 'flags'],
  ann_dimension: ['dimension', 'rating', 'worker_id', 'submitted_at', 'flags'],
  ann_date: ['submitted_at', 'dimension', 'worker_id', 'flags'],
  ann_story: ['story_id', 'sentence_index', 'dimension', 'worker_id', 'submitted_at', 'flags'],
  /** Partial: only rows with `flags > 0`. */
  ann_flagged: ['dimension', 'rating', 'worker_id', 'submitted_at'],
} as const satisfies Record<string, readonly string[]>

export type IndexName = keyof typeof REVIEW_INDEXES
export type IndexColumn = (typeof REVIEW_INDEXES)[IndexName][number]
