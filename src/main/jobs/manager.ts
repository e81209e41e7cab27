import { randomUUID } from 'node:crypto'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import type { CancelEffect, JobKind, JobProgress } from '../../shared/contract/jobs'
import { CancelledError } from './cancel'
import { errorInfo } from './errorInfo'

export interface JobReport {
  done: number
  total?: number | null
  detail?: string
  /** Records counted for the rate (rows/s), when `done` counts something else (bytes). */
  records?: number
  /** A job with phases may count something else in a later phase (bytes, then annotations). */
  unit?: string
  /**
   * `detail` names a step the job has just begun: sent at once, not held back by the interval,
   * or a short step that follows another would never be seen while it runs.
   */
  newStep?: boolean
  /** From this step on, cancelling does something else (sent at once too). */
  cancel?: CancelEffect
}

export interface JobContext {
  readonly signal: AbortSignal
  report(progress: JobReport): void
}

export interface JobSpec<R> {
  kind: JobKind
  title: string
  unit: string
  run(context: JobContext): Promise<R>
  /** What the job did, in a line, shown once it succeeded in place of its last step. */
  summary?(result: R): string
  /** What cancelling does when the job starts; by default a plain "Cancel". */
  cancel?: CancelEffect
  /**
   * Its steps are short transactions on the calling thread, with a pause between them (search
   * indexing): work in the jobs' turn (`inTurn`) runs between them instead of after it.
   */
  yields?: boolean
}

const PLAIN_CANCEL: CancelEffect = { label: 'Cancel', hint: '' }

const REPORT_INTERVAL_MS = 100

/**
 * Long jobs (import, pull, indexing): each reports progress at most every 100 ms (and at once when
 * it begins a new step), can be cancelled, and keeps its final state and result for the page to
 * read. Every job writes to the project, so they run one at a time, in the order they were
 * started: a second import waits for the first instead of failing on its lock.
 */
export class JobManager {
  private readonly jobs = new Map<string, { progress: JobProgress; controller: AbortController }>()
  /** Settles when the last job started so far has finished. */
  private queue: Promise<unknown> = Promise.resolve()
  /** Settles when the last job started so far that does not yield has finished. */
  private writes: Promise<unknown> = Promise.resolve()

  /**
   * `describeError` turns a job's failure into what the page is told (the API's own, which also
   * names a bad argument, where there is a page).
   */
  constructor(
    private readonly onProgress: (progress: JobProgress) => void,
    private readonly describeError: (error: unknown) => ApiErrorInfo = errorInfo,
  ) {}

  start<R>(spec: JobSpec<R>): JobProgress {
    const started = this.launch(spec)
    // Its outcome is in its progress; whoever started it only by id does not wait for it.
    started.result.catch(() => undefined)
    return started.progress
  }

  /** Starts a job and also hands back its result (rejected when it fails or is cancelled). */
  launch<R>(spec: JobSpec<R>): { progress: JobProgress; result: Promise<R> } {
    const id = randomUUID()
    const controller = new AbortController()
    let startedAt = Date.now()
    const ahead = [...this.jobs.values()]
      .map((j) => j.progress)
      .filter((p) => p.state === 'running')
    const progress: JobProgress = {
      id,
      kind: spec.kind,
      title: spec.title,
      state: 'running',
      unit: spec.unit,
      done: 0,
      total: null,
      rate: 0,
      bytesPerSecond: null,
      // "After importing a.csv": the titles name what the jobs do, so they read on after "After".
      detail:
        ahead.length > 0
          ? `After ${ahead.map((p) => p.title.charAt(0).toLowerCase() + p.title.slice(1)).join(', ')}`
          : '',
      startedAt,
      finishedAt: null,
      error: null,
      result: null,
      cancel: spec.cancel ?? PLAIN_CANCEL,
    }
    this.jobs.set(id, { progress, controller })
    let lastSent = 0
    const context: JobContext = {
      signal: controller.signal,
      report: (r) => {
        const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001)
        const newStep =
          r.newStep === true ||
          (r.unit !== undefined && r.unit !== progress.unit) ||
          (r.cancel !== undefined && r.cancel.label !== progress.cancel.label)
        if (r.cancel !== undefined) progress.cancel = r.cancel
        progress.done = r.done
        if (r.total !== undefined) progress.total = r.total
        if (r.detail !== undefined) progress.detail = r.detail
        if (r.unit !== undefined) progress.unit = r.unit
        progress.rate = (r.records ?? r.done) / seconds
        progress.bytesPerSecond = progress.unit === 'bytes' ? r.done / seconds : null
        const now = Date.now()
        if (newStep || now - lastSent >= REPORT_INTERVAL_MS) {
          lastSent = now
          this.onProgress({ ...progress })
        }
      },
    }
    this.onProgress({ ...progress })
    const before = this.queue
    const run = waitOrAbort(before, controller.signal).then(() => {
      if (ahead.length > 0) {
        // Its time and rate count from now, not from when it was queued.
        startedAt = progress.startedAt = Date.now()
        progress.detail = ''
        this.onProgress({ ...progress })
      }
      return spec.run(context)
    })
    // The next job waits for this one and for every job before it, even if this one is cancelled
    // while it waits.
    this.queue = Promise.all([before, run.catch(() => undefined)])
    if (!spec.yields) this.writes = Promise.all([this.writes, run.catch(() => undefined)])
    void run
      .then(
        (result) => {
          progress.state = 'succeeded'
          progress.result = result
          progress.detail = spec.summary?.(result) ?? ''
        },
        (error: unknown) => {
          progress.error = this.describeError(error)
          progress.state = progress.error.type === 'cancelled' ? 'cancelled' : 'failed'
        },
      )
      .finally(() => {
        progress.finishedAt = Date.now()
        this.onProgress({ ...progress })
      })
    return { progress: { ...progress }, result: run }
  }

  /**
   * Runs `work` in the jobs' turn without showing it as a job: after every job started so far
   * (but between the steps of one that yields), and before any started later. A team project's
   * pull writes to the project too, so it waits for a running import or bulk rating rather than
   * meeting its lock.
   */
  inTurn<R>(work: () => Promise<R>): Promise<R> {
    const run = this.writes.then(work)
    const settled = run.catch(() => undefined)
    this.queue = Promise.all([this.queue, settled])
    this.writes = Promise.all([this.writes, settled])
    return run
  }

  get(id: string): JobProgress | undefined {
    const job = this.jobs.get(id)
    return job && { ...job.progress }
  }

  list(): JobProgress[] {
    return [...this.jobs.values()].map((j) => ({ ...j.progress }))
  }

  cancel(id: string): boolean {
    const job = this.jobs.get(id)
    if (!job || job.progress.state !== 'running') return false
    job.controller.abort()
    return true
  }

  /** Resolves when every running job has finished (used on shutdown and in tests). */
  async idle(): Promise<void> {
    while ([...this.jobs.values()].some((j) => j.progress.state === 'running')) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}

/** Resolves when `turn` does; rejects as cancelled as soon as `signal` aborts. */
function waitOrAbort(turn: Promise<unknown>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const abort = (): void => reject(new CancelledError())
    if (signal.aborted) return abort()
    signal.addEventListener('abort', abort, { once: true })
    void turn.finally(() => {
      signal.removeEventListener('abort', abort)
      if (signal.aborted) abort()
      else resolve()
    })
  })
}
