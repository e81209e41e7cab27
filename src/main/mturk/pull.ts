/**
 * Pulling work from MTurk, free of storage: list the HITs to pull, then page through each HIT's
 * assignments of every status (MaxResults 100, NextToken) and yield one batch per page with the
 * checkpoint to persist alongside it. Resuming = passing the last persisted checkpoint back in.
 */
import {
  type Assignment,
  type AssignmentStatus,
  type HIT,
  ListAssignmentsForHITCommand,
  ListHITsCommand,
} from '@aws-sdk/client-mturk'
import { type MTurkContext, send } from './call'
import { append } from '../../shared/lists'

const PAGE_SIZE = 100
const ALL_STATUSES: readonly AssignmentStatus[] = ['Submitted', 'Approved', 'Rejected']
const DAY_MS = 86_400_000
const DISPOSAL_DAYS = 120

/** Which HITs to pull: by type id(s), by title text, or (both absent) all of them. */
export interface HITSelection {
  hitTypeIds?: readonly string[]
  titleContains?: string
}

/**
 * Per HIT: the NextToken of the next page to fetch, or `'done'` once its last page was stored.
 * A HIT that is absent starts from its first page.
 */
export type PullCheckpoint = Record<string, string>
export const DONE = 'done'

export interface PullBatch {
  hit: HIT
  /** This page's assignments (possibly none: an empty last page). */
  assignments: Assignment[]
  /** Token of the following page; undefined after the HIT's last page. */
  nextToken: string | undefined
  /**
   * The whole checkpoint after this page; store it in the same transaction as the page. It is the
   * pull's own map, read as of this page: it changes when the next page is taken (a copy per page
   * would cost time growing with the HITs pulled, and the square of them over a pull).
   */
  checkpoint: Readonly<PullCheckpoint>
  /** The HIT was disposed or deleted while pulling; it is marked done. */
  gone?: true
  /** The checkpoint's token was refused, so this HIT started over from its first page. */
  restarted?: true
}

export interface PullOptions {
  checkpoint?: PullCheckpoint
  statuses?: readonly AssignmentStatus[]
  /** HITs pulled at the same time (default 1); pages of one HIT always arrive in order. */
  concurrency?: number
}

/** Every live HIT matching the selection (ListHITs has no filters, so filtering is ours). */
export async function listHITs(ctx: MTurkContext, selection: HITSelection = {}): Promise<HIT[]> {
  const hits: HIT[] = []
  let token: string | undefined
  do {
    const input = { MaxResults: PAGE_SIZE, ...(token ? { NextToken: token } : {}) }
    const page = await send(ctx, (c, o) => c.send(new ListHITsCommand(input), o))
    append(hits, page.HITs ?? [])
    token = page.NextToken || undefined
  } while (token)
  return selectHITs(hits, selection)
}

/** The HITs of a selection: any of the type ids, and the title text (case-insensitive). */
export function selectHITs(hits: readonly HIT[], selection: HITSelection = {}): HIT[] {
  const types = selection.hitTypeIds?.length ? new Set(selection.hitTypeIds) : undefined
  const title = selection.titleContains?.trim().toLowerCase() || undefined
  return hits.filter(
    (hit) =>
      (!types || types.has(hit.HITTypeId ?? '')) &&
      (!title || (hit.Title ?? '').toLowerCase().includes(title)),
  )
}

/** When the service disposes of the HIT and its work (120 days after creation). */
export function disposalTime(hit: HIT): Date | undefined {
  return hit.CreationTime && new Date(hit.CreationTime.getTime() + DISPOSAL_DAYS * DAY_MS)
}

/** True when the HIT will be disposed within `days` (default 10): pull it now. */
export function nearDisposal(hit: HIT, now = Date.now(), days = 10): boolean {
  const t = disposalTime(hit)
  return t !== undefined && t.getTime() - now <= days * DAY_MS
}

/** Batches of all assignments of `hits`, resuming from `options.checkpoint`. */
export async function* pullAssignments(
  ctx: MTurkContext,
  hits: readonly HIT[],
  options: PullOptions = {},
): AsyncGenerator<PullBatch> {
  const checkpoint: PullCheckpoint = { ...options.checkpoint }
  const statuses = options.statuses ?? ALL_STATUSES
  const todo = hits.filter((h) => h.HITId && checkpoint[h.HITId] !== DONE)
  const pages = (hit: HIT): AsyncGenerator<Omit<PullBatch, 'checkpoint'>> =>
    hitPages(ctx, hit, checkpoint[hit.HITId ?? ''], statuses)
  for await (const page of merge(
    todo.map((hit) => () => pages(hit)),
    options.concurrency ?? 1,
    (page) => page.nextToken === undefined,
  )) {
    checkpoint[page.hit.HITId ?? ''] = page.nextToken ?? DONE
    yield { ...page, checkpoint }
  }
}

async function* hitPages(
  ctx: MTurkContext,
  hit: HIT,
  start: string | undefined,
  statuses: readonly AssignmentStatus[],
): AsyncGenerator<Omit<PullBatch, 'checkpoint'>> {
  let token = start
  // At most once per HIT and run: a service that refuses every token must fail, not loop.
  let restartedOnce = false
  let restarted = false
  for (;;) {
    const input = {
      HITId: hit.HITId,
      AssignmentStatuses: [...statuses],
      MaxResults: PAGE_SIZE,
      ...(token ? { NextToken: token } : {}),
    }
    let page
    try {
      page = await send(ctx, (c, o) => c.send(new ListAssignmentsForHITCommand(input), o))
    } catch (e) {
      if (token !== undefined && !restartedOnce && isStaleToken(e)) {
        // A checkpoint's token can outlive the service's memory of it (a pull resumed days
        // later): start this HIT over. Pages already stored are recognised and not added twice.
        token = undefined
        restarted = restartedOnce = true
        continue
      }
      if (
        (e as { TurkErrorCode?: string }).TurkErrorCode !== 'AWS.MechanicalTurk.HITDoesNotExist'
      ) {
        throw e
      }
      yield { hit, assignments: [], nextToken: undefined, gone: true }
      return
    }
    token = page.NextToken || undefined
    yield {
      hit,
      assignments: page.Assignments ?? [],
      nextToken: token,
      ...(restarted ? { restarted: true as const } : {}),
    }
    restarted = false
    if (!token) return
  }
}

/**
 * The service's answer to a NextToken it no longer accepts. Its exact wording is not documented
 * (FORMATS §3.3): any client error that names the token counts.
 */
function isStaleToken(error: unknown): boolean {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } }
  const status = e?.$metadata?.httpStatusCode
  const clientError = status === undefined || (status >= 400 && status < 500)
  return clientError && e?.name !== 'ThrottlingException' && /next\s*token/i.test(e?.message ?? '')
}

/**
 * Runs up to `limit` generators at once and yields their items as they come; each generator's own
 * order is kept, and its next item is already being fetched while the caller handles this one.
 * An item that `isLast` says ends its source frees that slot at once: the next source starts
 * fetching before the caller handles the item, so one-page HITs keep `limit` requests in flight
 * while the caller stores. The first error stops everything.
 */
async function* merge<T>(
  sources: readonly (() => AsyncGenerator<T>)[],
  limit: number,
  isLast: (item: T) => boolean = () => false,
): AsyncGenerator<T> {
  let started = 0
  const running = new Map<AsyncGenerator<T>, Promise<[AsyncGenerator<T>, IteratorResult<T>]>>()
  const pull = (g: AsyncGenerator<T>): void => {
    const next = g.next().then((r): [AsyncGenerator<T>, IteratorResult<T>] => [g, r])
    next.catch(() => undefined) // observed by the race below; this only silences "unhandled"
    running.set(g, next)
  }
  const startNext = (): void => {
    const source = sources[started++]
    if (source) pull(source())
  }
  try {
    while (started < Math.max(1, limit) && started < sources.length) startNext()
    while (running.size > 0) {
      const [g, result] = await Promise.race(running.values())
      if (result.done) {
        running.delete(g)
        startNext()
      } else if (isLast(result.value)) {
        running.delete(g)
        await g.return(undefined)
        startNext()
        yield result.value
      } else {
        pull(g) // fetch this source's next page while the caller stores this one
        yield result.value
      }
    }
  } finally {
    // Settle what is still in flight so no rejection is left unhandled, then close the sources.
    for (const [g, pending] of running) {
      await pending.catch(() => undefined)
      await g.return(undefined)
    }
  }
}
