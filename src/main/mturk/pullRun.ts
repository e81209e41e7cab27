/**
 * One pull, start to finish: list the account's HITs (and note the ones that are gone), pick the
 * selected ones, decide what to fetch, then page through their assignments a few HITs at a time,
 * parsing each page as it comes and committing pages in groups; the text is indexed at the end.
 * An unfinished pull with the same mode, selection and endpoint is continued from its checkpoints
 * instead of starting over.
 */
import type { HIT } from '@aws-sdk/client-mturk'
import type { MTurkPullResult, PullSelection } from '../../shared/contract/mturk'
import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { hitStates, markGoneExcept, upsertHits } from '../db/queries/mturk/hits'
import {
  type Checkpoint,
  addCheckpoints,
  checkpoints,
  createPull,
  finishPull,
  restartPull,
  saveCheckpoint,
  setPullHits,
  unfinishedPull,
  withDeferredCheckpoints,
} from '../db/queries/mturk/pulls'
import { CancelledError } from '../jobs/cancel'
import { indexSearchText } from '../search/indexer'
import { type ActionError, toActionError } from './actions'
import type { MTurkContext } from './call'
import { requireExam } from '../collections/crowdaq/grade'
import { examQuestions } from '../collections/crowdaq/db/specs'
import type { ExamPullTarget } from './exam-map'
import type { FieldMap } from './glucose-map'
import {
  DONE,
  type PullCheckpoint,
  listHITs,
  nearDisposal,
  pullAssignments,
  selectHITs,
} from './pull'
import { type PullPlan, expectedAssignments, planPull, toListedHit } from './pullPlan'
import { holdPull, refuseIfRunning, thisRunner } from './pullRunner'
import { type PullStoreOptions, type PullTiming, presentAssignments } from './pullStore'
import { canStoreOnThread, openPageStore } from './pullStoreThread'
import { formatCount, plural } from '../../shared/text'

export interface PullRequest {
  mode: 'all' | 'new'
  selection: PullSelection
}

interface PullProgress {
  done: number
  total: number
  detail: string
}

export interface RunPullOptions {
  /** The endpoint URL: part of what makes two pulls "the same" for resuming. */
  endpoint: string
  author: string
  /** HITs fetched at once (default 4); pages of one HIT always come in order. */
  concurrency?: number
  /** Epoch ms (tests move it together with the stand-in's clock). */
  now?: () => number
  map?: FieldMap
  /** Accumulates where the time went (ms); see `PullRunTiming`. */
  timing?: PullRunTiming
  /** Commit policy of the store (tests make it commit every page). */
  commit?: Pick<PullStoreOptions, 'commitAssignments' | 'commitAfterMs'>
  /**
   * Parse and store on a store thread beside this one (tests force either way); by default for
   * pulls of 1,000 assignments or more into a project file.
   */
  storeOnThread?: boolean
  progress?(p: PullProgress): void
  /** Called after each page received (queued for the next commit; on this thread, parsed). */
  onPage?(): void
  /** Called after each commit of queued pages. */
  onCommit?(): void
}

/**
 * Where a pull's time went, in ms. `parseMs` and `storeMs` are busy time wherever the store runs
 * (on its thread they overlap the pull's HTTP); `storeWaitMs` is the time the pull's own loop
 * spent on the store: parsing and committing itself, or waiting for the store thread to take
 * pages or to finish its last commit.
 */
interface PullRunTiming extends PullTiming {
  listMs: number
  waitMs: number
  storeWaitMs: number
  indexMs: number
}

/** Smaller pulls stay on one thread: starting a thread takes about as long as they do. */
const THREAD_MIN_ASSIGNMENTS = 1_000

export async function runPull(
  db: Db,
  ctx: MTurkContext,
  request: PullRequest,
  options: RunPullOptions,
): Promise<MTurkPullResult> {
  const now = options.now ?? Date.now
  const exam = request.selection.examId ? examTarget(db, request.selection.examId) : undefined
  const listStart = performance.now()
  // The whole account is listed, not just the selection: a HIT missing from a complete listing
  // has been disposed or deleted.
  const all = await listOrExplain(ctx)
  if (options.timing) options.timing.listMs += performance.now() - listStart
  const selected = selectHITs(all, request.selection)
  const key = { mode: request.mode, selection: request.selection, endpoint: options.endpoint }

  const setup = db
    .transaction(() => {
      const at = now()
      upsertHits(db, all.map(toListedHit), at)
      const gone = markGoneExcept(
        db,
        all.map((h) => h.HITId ?? ''),
        at,
      )
      const resumed = unfinishedPull(db, key)
      if (resumed) refuseIfRunning(db, resumed.id, resumed.startedAt)
      const pullId = resumed?.id ?? createPull(db, key, at, thisRunner())
      if (resumed) restartPull(db, pullId, thisRunner())
      const saved = checkpoints(db, pullId)
      const unfinished = new Set([...saved].filter(([, c]) => !c.done).map(([id]) => id))
      const states = hitStates(
        db,
        selected.map((h) => h.HITId ?? ''),
        Math.floor(at / 1000),
      )
      const plan = planPull(
        request.mode,
        selected,
        new Map(states.map((s) => [s.hitId, s])),
        unfinished,
      )
      addCheckpoints(
        db,
        pullId,
        plan.fetch.map((h) => h.HITId ?? ''),
      )
      if (request.mode === 'new') {
        // A HIT finished earlier in this run that changed again since is fetched again.
        for (const hit of plan.fetch) {
          const id = hit.HITId ?? ''
          if (saved.get(id)?.done) saveCheckpoint(db, pullId, id, { nextToken: null, done: false })
        }
      }
      setPullHits(db, pullId, selected.length)
      return { pullId, resumed: resumed !== undefined, gone, plan, saved: checkpoints(db, pullId) }
    })
    .immediate()

  const hold = holdPull(db, setup.pullId)
  try {
    return await pullHeld(db, ctx, { ...options, ...(exam ? { exam } : {}) }, selected, setup)
  } finally {
    hold.release()
  }
}

async function pullHeld(
  db: Db,
  ctx: MTurkContext,
  options: RunPullOptions & { exam?: ExamPullTarget },
  selected: readonly HIT[],
  setup: {
    pullId: number
    resumed: boolean
    gone: number
    plan: PullPlan
    saved: Map<string, Checkpoint>
  },
): Promise<MTurkPullResult> {
  const now = options.now ?? Date.now
  const checkpoint: PullCheckpoint = {}
  for (const [id, c] of setup.saved) {
    if (c.done) checkpoint[id] = DONE
    else if (c.nextToken) checkpoint[id] = c.nextToken
  }
  const toFetch = setup.plan.fetch.filter((h) => checkpoint[h.HITId ?? ''] !== DONE)
  const total = toFetch.reduce((n, h) => n + expectedAssignments(h), 0)
  const result: MTurkPullResult = {
    pullId: setup.pullId,
    hits: selected.length,
    assignments: 0,
    new: 0,
    updated: 0,
    skipped: setup.plan.skipped,
    gone: setup.gone,
    nearDisposal: selected.filter((h) => nearDisposal(h, now())).length,
    resumed: setup.resumed,
  }
  const hitsLeft = new Set(toFetch.map((h) => h.HITId ?? ''))
  options.progress?.({ done: 0, total, detail: describe(hitsLeft.size, toFetch.length) })

  const timing = options.timing
  await withDeferredCheckpoints(db, async () => {
    const onThread =
      options.storeOnThread ?? (total >= THREAD_MIN_ASSIGNMENTS && canStoreOnThread(db))
    // Opened here so that nothing between its start and the `finally` below can leave it running.
    const store = openPageStore(
      db,
      {
        pullId: setup.pullId,
        author: options.author,
        ...(options.exam ? { exam: options.exam } : options.map ? { map: options.map } : {}),
        ...options.commit,
      },
      {
        onCommit: (stored) => {
          result.new += stored.added
          result.updated += stored.updated
          options.onCommit?.()
        },
        ...(timing ? { timing } : {}),
      },
      onThread,
    )
    const flush = async (): Promise<void> => {
      const start = performance.now()
      await store.flush(now())
      if (timing) timing.storeWaitMs += performance.now() - start
    }
    try {
      let waitStart = performance.now()
      for await (const batch of pullAssignments(ctx, toFetch, {
        checkpoint,
        concurrency: options.concurrency ?? 4,
      })) {
        const storeStart = performance.now()
        if (timing) timing.waitMs += storeStart - waitStart
        result.assignments += presentAssignments(batch).length
        await store.add(batch, now())
        options.onPage?.()
        store.commitIfDue()
        if (timing) timing.storeWaitMs += performance.now() - storeStart
        if (batch.nextToken === undefined) hitsLeft.delete(batch.hit.HITId ?? '')
        options.progress?.({
          done: result.assignments,
          total: Math.max(total, result.assignments),
          detail: describe(hitsLeft.size, toFetch.length),
        })
        waitStart = performance.now()
      }
      await flush()
    } catch (error) {
      // What was fetched before the failure is good: keep it (a commit that itself failed left
      // nothing queued, so this adds nothing twice).
      await flush()
      if (ctx.signal?.aborted) {
        finishPull(db, setup.pullId, 'cancelled', now())
        throw new CancelledError(
          `Pull cancelled after ${plural(result.assignments, 'assignment')}; what was pulled is kept, and ` +
            'pulling again with the same selection continues where it stopped.',
        )
      }
      const failure = explain(error)
      finishPull(db, setup.pullId, 'failed', now(), failure.message)
      throw failure
    } finally {
      store.close()
    }
    finishPull(db, setup.pullId, 'done', now())
    // The text becomes searchable in a few large steps after the pull; a full-text query before
    // then indexes what is still waiting first.
    // An exam's attempts hold no annotation text to index.
    if (options.exam) return
    const indexStart = performance.now()
    options.progress?.({
      done: result.assignments,
      total: Math.max(total, result.assignments),
      detail: 'Indexing text for search',
    })
    indexSearchText(db, { cancelled: () => ctx.signal?.aborted === true })
    if (options.timing) options.timing.indexMs += performance.now() - indexStart
  })
  return result
}

/** The exam a pull of its qualification HITs stores attempts for; refused when it is unknown. */
function examTarget(db: Db, examId: string): ExamPullTarget {
  const exam = requireExam(db, examId)
  const questionIds = examQuestions(db, examId)
    .filter((q) => q.enabled)
    .map((q) => q.questionId)
  const perAttempt = exam.settings.questionsPerAttempt
  return { examId, questionIds, asksAll: perAttempt === 0 || perAttempt >= questionIds.length }
}

function describe(left: number, of: number): string {
  return `${formatCount(of - left)} of ${plural(of, 'HIT')}`
}

async function listOrExplain(ctx: MTurkContext): Promise<HIT[]> {
  try {
    return await listHITs(ctx)
  } catch (error) {
    if (ctx.signal?.aborted) throw new CancelledError('Pull cancelled before anything was pulled.')
    throw explain(error)
  }
}

/**
 * A service or network failure as the user should read it. Kept as a UserError so it is shown as
 * it is and never logged with the request (whose signature names the access key).
 */
export function explain(error: unknown): UserError {
  if (error instanceof UserError) return error
  const e = toActionError(error)
  const code = (error as { code?: unknown }).code
  return explainAction({ ...e, ...(e.code ? {} : typeof code === 'string' ? { code } : {}) })
}

/** An action's recorded error, thrown where a call has no record to return. */
export function explainAction(e: ActionError): UserError {
  return new UserError({
    type: 'input',
    code: 'mturk-request',
    message: `MTurk request failed (${e.code ?? e.name}): ${e.message}`,
  })
}
