import type { MessagePort } from 'node:worker_threads'
import type { InputErrorCode } from './errors'
import type { RowBatch } from './rowBatch'
import type { GlucoseFormat, ImportWarning } from './types'

/** What crosses between the import and its read-ahead thread (readAhead.ts, read-ahead-worker.ts). */

export interface ReadAheadFile {
  path: string
  format: GlucoseFormat
  year?: number
}

export interface ReadAheadData {
  files: ReadAheadFile[]
  /** Counters shared with the import; see `Slot`. */
  state: Int32Array
  port: MessagePort
  /** The better-sqlite3 addon of this runtime, for a file's keys once they move to disk. */
  nativeBinding: string | null
}

/** Slots of the shared counters. */
export const Slot = {
  /** Messages the reader has posted. */
  posted: 0,
  /** Messages the import has taken. */
  taken: 1,
  /** Set by the import: stop reading. */
  stop: 2,
  /** Set by the reader once its code has loaded. */
  started: 3,
  /** Set by the reader when it has posted its last message. */
  done: 4,
} as const
export const SLOTS = 5

/** Messages the reader may be ahead by: bounds the memory held between the two threads. */
export const MAX_AHEAD = 8
/** Rows per message. */
export const ROWS_PER_MESSAGE = 256

export type ReadFailure =
  | {
      kind: 'input'
      code: InputErrorCode
      reason: string
      path: string
      line: number
      column: number
      field?: string
    }
  | { kind: 'other'; message: string }

export type ReadAheadMessage =
  | { type: 'rows'; file: number; rows: RowBatch; bytesRead: number }
  | { type: 'end'; file: number; sha256: string; warnings: ImportWarning[] }
  | { type: 'failed'; failure: ReadFailure }
