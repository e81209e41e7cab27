import type { JobKind } from '../../shared/contract/jobs'
import type { PolicyApplied } from '../../shared/contract/policies'
import type { RatingResult } from '../../shared/contract/ratings'
import type { AnnotationFilter } from '../../shared/filter'
import type { Db } from '../db/connection'
import { type ApplyRequest, applyEvaluated } from '../policies/run'
import { recomputeEverything } from '../ratings/effective'
import { rateFilter, rateSelection } from '../ratings/rateTargets'
import { revertChangeSet } from '../ratings/revert'
import type { WriteHooks } from '../jobs/writeHooks'

/**
 * The writes that may touch more than a few thousand rows, each one function
 * `(db, request, hooks) => result` that runs inside a worker thread on its own connection (or in
 * the caller's process: the command line, an in-memory project). A write runs in one immediate
 * transaction, reports its steps through `hooks` and checks `hooks.cancelled()` between them, so a
 * cancelled write leaves nothing behind. Requests and results cross threads by structured clone:
 * plain data only.
 *
 * A new long write is one entry here, under its job kind (`JobKind`), then `runWriteJob`.
 */

export interface RateRequest {
  target:
    | { kind: 'query'; filter: AnnotationFilter }
    | { kind: 'selection'; annotationIds: number[]; submissionIds: number[] }
  /** A rating on the project's scale, or null to clear item ratings. */
  value: number | null
  author: string
  note?: string
  /** Work out what it would change and write nothing. */
  preview?: boolean
}

interface RevertRequest {
  changeSetId: number
  author: string
  preview?: boolean
}

export function rate(db: Db, r: RateRequest, hooks: WriteHooks): RatingResult {
  const options = {
    value: r.value,
    author: r.author,
    ...(r.note ? { note: r.note } : {}),
    preview: r.preview ?? false,
  }
  return r.target.kind === 'query'
    ? rateFilter(db, r.target.filter, options, hooks)
    : rateSelection(db, r.target, options, hooks)
}

function revert(db: Db, r: RevertRequest, hooks: WriteHooks): RatingResult {
  return revertChangeSet(
    db,
    r.changeSetId,
    { author: r.author, preview: r.preview ?? false },
    hooks,
  )
}

/** Rebuilds every annotation's effective rating from the rating tables. */
function recompute(db: Db, _r: Record<string, never>, hooks: WriteHooks): { changed: number } {
  return { changed: recomputeEverything(db, hooks) }
}

/** A policy's apply: its script already ran (on the policy thread); this writes its moves. */
function policy(db: Db, r: ApplyRequest, hooks: WriteHooks): PolicyApplied {
  return applyEvaluated(db, r, hooks)
}

const writeTasks = {
  rate,
  revert,
  recompute,
  policy,
} satisfies { [K in JobKind]?: (db: Db, request: never, hooks: WriteHooks) => unknown }

export type WriteKind = keyof typeof writeTasks
export type WriteRequest<K extends WriteKind> = Parameters<(typeof writeTasks)[K]>[1]
export type WriteResult<K extends WriteKind> = ReturnType<(typeof writeTasks)[K]>

/** Runs a write task here, on `db` (the command line; projects in memory). */
export function runWrite<K extends WriteKind>(
  db: Db,
  kind: K,
  request: WriteRequest<K>,
  hooks: WriteHooks,
): WriteResult<K> {
  const task = writeTasks[kind] as (
    db: Db,
    request: WriteRequest<K>,
    hooks: WriteHooks,
  ) => WriteResult<K>
  return task(db, request, hooks)
}
