import { z } from 'zod'
import { call, event } from './define'
import type { ApiErrorInfo } from './errors'

export type JobKind =
  | 'import'
  | 'index'
  | 'synth'
  | 'pull'
  | 'rate'
  | 'revert'
  | 'recompute'
  | 'export'
  | 'policy'
  | 'qualify'
  | 'team'
/**
 * Jobs that change ratings in one transaction (bulk rating, revert, recomputation, a policy's
 * apply): cancel undoes them.
 */
export const WRITE_JOB_KINDS: readonly JobKind[] = ['rate', 'revert', 'recompute', 'policy']

type JobState = 'running' | 'succeeded' | 'failed' | 'cancelled'

/** What cancelling a job does at this point: its button's label and a sentence for its tooltip. */
export interface CancelEffect {
  label: string
  hint: string
}

export interface JobProgress {
  id: string
  kind: JobKind
  title: string
  state: JobState
  /** What is being counted: `bytes` for file imports, `rows`, `assignments` … */
  unit: string
  done: number
  /** Null while the total is unknown. */
  total: number | null
  /** Records per second since the job started (rows/s for imports). */
  rate: number
  /** Bytes per second, where meaningful. */
  bytesPerSecond: number | null
  /** The step under way (a file's name, "Indexing text for search"); once succeeded, what the job did. */
  detail: string
  startedAt: number
  finishedAt: number | null
  error: ApiErrorInfo | null
  /** The job's result once it succeeded (shape depends on the kind). */
  result: unknown
  /** Set by the job, which knows: an import's cancel undoes it until its rows are committed. */
  cancel: CancelEffect
}

const jobId = z.string().regex(/^[a-z0-9-]{1,64}$/)

export const jobCalls = {
  'jobs.list': call(z.object({})).returns<JobProgress[]>(),
  'jobs.get': call(z.object({ id: jobId })).returns<JobProgress>(),
  'jobs.cancel': call(z.object({ id: jobId })).returns<{ cancelled: boolean }>(),
}

export const jobEvents = {
  'job.progress': event<JobProgress>(),
}
