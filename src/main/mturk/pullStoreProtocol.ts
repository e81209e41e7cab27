import type { MessagePort } from 'node:worker_threads'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import type { ExamPullTarget } from './exam-map'
import type { FieldMap } from './glucose-map'
import type { CommitResult, PullTiming, StorePage } from './pullStore'

/**
 * What crosses between a pull and its store thread (pullStoreThread.ts): the pull posts pages to
 * the store thread (pull-store-worker.ts), which tells the pull what it took and committed.
 */

export interface PullStoreData {
  dbPath: string
  nativeBinding: string | null
  pullId: number
  author: string
  map?: FieldMap
  exam?: ExamPullTarget
  commitAssignments?: number
  commitAfterMs?: number
  /** The pages, from the pull. */
  input: MessagePort
}

/**
 * Pages leave the pull's whole checkpoint map behind (it grows with the HITs pulled; cloning it
 * with every page would cost more than the page). `at` is the pull's clock (epoch ms) when the
 * page arrived: the time its commit records.
 */
export type ToStoreThread =
  { type: 'page'; page: StorePage; at: number } | { type: 'finish'; at: number }

export type FromStoreThread =
  | { type: 'taken'; assignments: number }
  | { type: 'committed'; result: CommitResult }
  | { type: 'finished'; timing: PullTiming }
  | { type: 'failed'; error: ApiErrorInfo }
