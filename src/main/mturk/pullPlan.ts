/**
 * Which HITs a pull fetches. "Pull all" fetches every selected HIT. "Pull new" fetches only those
 * whose work may have changed since their last complete pull: never pulled, assignment counts or
 * status different from then (new submissions, reviews, extensions), or holding Submitted work
 * whose auto-approval time has passed (the service approves it by itself, FORMATS §3.5). A HIT
 * left unfinished by an interrupted run is always fetched, from its checkpoint.
 */
import type { HIT } from '@aws-sdk/client-mturk'
import type { ListedHit, StoredHitState } from '../db/queries/mturk/hits'
import { disposalTime } from './pull'

const seconds = (d: Date | undefined): number | null =>
  d === undefined ? null : Math.floor(d.getTime() / 1000)

/**
 * What changes when a HIT's work does. Pending/Available/Completed move with every accept, submit
 * and review; MaxAssignments with an extension.
 */
export function hitSignature(hit: HIT): string {
  return JSON.stringify([
    hit.MaxAssignments ?? null,
    hit.NumberOfAssignmentsPending ?? null,
    hit.NumberOfAssignmentsAvailable ?? null,
    hit.NumberOfAssignmentsCompleted ?? null,
    hit.HITStatus ?? null,
  ])
}

export function toListedHit(hit: HIT): ListedHit {
  return {
    hitId: hit.HITId ?? '',
    hitTypeId: hit.HITTypeId ?? '',
    title: hit.Title ?? '',
    createdAt: seconds(hit.CreationTime),
    expiresAt: seconds(hit.Expiration),
    disposalAt: seconds(disposalTime(hit)),
    status: hit.HITStatus ?? null,
    maxAssignments: hit.MaxAssignments ?? null,
    signature: hitSignature(hit),
    raw: JSON.stringify(hit),
  }
}

/** Assignments a HIT should hold once pulled (submitted or reviewed), for the progress bar. */
export function expectedAssignments(hit: HIT): number {
  const completed = hit.NumberOfAssignmentsCompleted ?? 0
  const max = hit.MaxAssignments ?? 0
  const open = (hit.NumberOfAssignmentsPending ?? 0) + (hit.NumberOfAssignmentsAvailable ?? 0)
  return Math.max(completed, max - open, 0)
}

export interface PullPlan {
  fetch: HIT[]
  /** Selected HITs left alone because nothing changed ("pull new"). */
  skipped: number
}

export function planPull(
  mode: 'all' | 'new',
  selected: readonly HIT[],
  stored: ReadonlyMap<string, StoredHitState>,
  unfinished: ReadonlySet<string>,
): PullPlan {
  if (mode === 'all') return { fetch: [...selected], skipped: 0 }
  const fetch = selected.filter((hit) => {
    const id = hit.HITId ?? ''
    const state = stored.get(id)
    return (
      unfinished.has(id) ||
      !state ||
      state.pulledAt === null ||
      state.pulledSignature !== hitSignature(hit) ||
      state.autoApprovalDue
    )
  })
  return { fetch, skipped: selected.length - fetch.length }
}
