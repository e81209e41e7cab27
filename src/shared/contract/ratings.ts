import { z } from 'zod'
import { annotationFilterSchema } from '../filter'
import { call, event } from './define'

import type { RatingLevel } from '../ratings/scale'

export { DEFAULT_RATING_SCALE, RATING_SCALE_SETTING, type RatingLevel } from '../ratings/scale'

export const ratingLevelSchema = z.object({
  value: z.number().finite().min(-100).max(100),
  label: z.string().trim().min(1).max(40),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
})

/** "From" → "to" for a number of annotations; null = unrated. */
export interface Transition {
  from: number | null
  to: number | null
  count: number
}

/** What a rating action did (or, with `preview`, would do) to effective ratings. */
export interface RatingResult {
  preview: boolean
  /** The change set written; null for a preview or when nothing was written. */
  changeSet: number | null
  /** Annotations whose effective rating changed. */
  changed: number
  /** Rating rows the action adds (items rated, or 1 for a worker rating). */
  rows: number
  transitions: Transition[]
}

/**
 * What wrote a change set: ratings (`manual` one by one, `bulk`, `policy`), an `import`, an MTurk
 * action or pull (`mturk`), a `revert` (undo and redo), triage (queues, marks, feedback, reviews),
 * an `audit` (drawn items, verdicts), a project `setting`, a CROWDAQ or a ProtoQA edit.
 */
export type ChangeSetKind =
  | 'import'
  | 'manual'
  | 'bulk'
  | 'policy'
  | 'revert'
  | 'mturk'
  | 'triage'
  | 'audit'
  | 'setting'
  | 'crowdaq'
  | 'protoqa'

export interface ChangeSetSummary {
  id: number
  kind: ChangeSetKind
  /** Epoch ms. Pass as `asOf` to see the ratings as they stood right after this change set. */
  at: number
  author: string
  description: string
  changed: number
  transitions: Transition[]
  /** The change set this one reverts (kind `revert`). */
  reverts: number | null
  /** The revert currently undoing this one; null while it is in force. */
  revertedBy: number | null
  /**
   * For a revert: the change set it finally acts on, undoing it, or (a revert of a revert)
   * redoing it, and that one's kind. Its description then reads "Undo #3: …" or "Redo #3: …".
   */
  revertOf: { id: number; redo: boolean; kind: ChangeSetKind } | null
  /**
   * Whether reverting it can do anything: false for what only adds (a triage queue, audit items
   * drawn, a CROWDAQ or ProtoQA edit), which History offers no Revert for.
   */
  revertable: boolean
}

interface WorkerRatingEntry {
  id: number
  value: number
  /** Commit date, `YYYY-MM-DD`, and the same as epoch seconds. */
  commitDate: string
  effectiveFrom: number
  recordedAt: number
  author: string
  note: string
  changeSet: number
  /** Retracted by a revert (and not reinstated since). */
  retracted: boolean
}

export interface WorkerTimeline {
  worker: { id: number; externalId: string }
  /** Every rating ever recorded for the worker, newest commit date first. */
  ratings: WorkerRatingEntry[]
  /** The rating in force over time (commit dates, `YYYY-MM-DD`; null = open end). */
  steps: { from: string | null; until: string | null; value: number | null }[]
  /** Submissions per day with their annotations by effective rating, for the chart. */
  volume: {
    day: string
    submissions: number
    annotations: number
    byRating: Record<string, number>
  }[]
}

export interface UndoState {
  undo: ChangeSetSummary | null
  redo: ChangeSetSummary | null
}

/** A day as the page's date input gives it. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
const id = z.number().int().positive()
const rating = z.number().finite()
const note = z.string().max(2000).optional()
/** Epoch ms; "as they stood at this moment". */
export const asOfSchema = z.number().int().nonnegative().optional()

export const ratingsCalls = {
  'ratings.scale': call(z.object({})).returns<RatingLevel[]>(),
  'ratings.setScale': call(z.object({ scale: z.array(ratingLevelSchema).min(1).max(20) })).returns<
    RatingLevel[]
  >(),
  /** A worker rating in force from `from` (default today); `preview` writes nothing. */
  'ratings.rateWorker': call(
    z.object({ workerId: id, rating, from: day.optional(), note, preview: z.boolean().optional() }),
  ).returns<RatingResult>(),
  /** Item ratings for annotations and/or whole submissions; `rating: null` clears them. */
  'ratings.rateItems': call(
    z
      .object({
        annotationIds: z.array(id).max(1_000_000).optional(),
        submissionIds: z.array(id).max(1_000_000).optional(),
        rating: rating.nullable(),
        note,
        preview: z.boolean().optional(),
      })
      .refine((a) => (a.annotationIds?.length ?? 0) + (a.submissionIds?.length ?? 0) > 0, {
        message: 'name at least one annotation or submission',
      }),
  ).returns<RatingResult>(),
  /**
   * Every annotation the filter matches, in one bulk change set. Written as a job (progress,
   * cancel) on a worker thread; resolves when it is committed. Large `rateItems`, reverts, undo
   * and redo do the same.
   */
  'ratings.rateQuery': call(
    z.object({
      filter: annotationFilterSchema,
      rating: rating.nullable(),
      note,
      preview: z.boolean().optional(),
    }),
  ).returns<RatingResult>(),
  /**
   * Rebuilds every annotation's effective rating from the rating tables (a repair: a correct
   * project changes nothing). Runs as a job; resolves when it is committed.
   */
  'ratings.recompute': call(z.object({})).returns<{ changed: number }>(),
  'ratings.workerTimeline': call(z.object({ workerId: id })).returns<WorkerTimeline>(),
  'ratings.history': call(
    z.object({ limit: z.number().int().min(1).max(1000).optional(), beforeId: id.optional() }),
  ).returns<{ changeSets: ChangeSetSummary[] }>(),
  'ratings.revert': call(
    z.object({ changeSetId: id, preview: z.boolean().optional() }),
  ).returns<RatingResult>(),
  'ratings.undoState': call(z.object({})).returns<UndoState>(),
  /**
   * Reverts the latest change set still in force that rated by hand, in bulk or by a policy, marked
   * a triage annotation or judged an audit item; null when there is none.
   */
  'ratings.undo': call(z.object({})).returns<RatingResult | null>(),
  /** Reverts the latest undo, unless a change undo would take came after it. */
  'ratings.redo': call(z.object({})).returns<RatingResult | null>(),
  /** Annotations by effective rating, now or as they stood at `asOf`. */
  'ratings.counts': call(z.object({ asOf: asOfSchema })).returns<{
    asOf: number | null
    byRating: Record<string, number>
  }>(),
}

export const ratingsEvents = {
  /** A change set was written that does not change ratings (a triage mark, a verdict, a setting). */
  'history.changed': event<Record<string, never>>(),
}
