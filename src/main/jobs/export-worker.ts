import { parentPort, workerData } from 'node:worker_threads'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import type { ParsedReleaseOptions, ReleaseResult } from '../../shared/contract/release'
import { errorInfo } from '../api/errorInfo'
import { openProject } from '../db/connection'
import { exportRelease } from '../release/export'

export interface ExportWorkerData {
  dbPath: string
  options: ParsedReleaseOptions
  cancelFlag: Int32Array
  nativeBinding: string | null
}

export type ExportWorkerMessage =
  | { type: 'progress'; done: number; total: number; step?: string }
  | { type: 'done'; result: ReleaseResult }
  | { type: 'failed'; error: ApiErrorInfo }

function main(data: ExportWorkerData): void {
  const port = parentPort
  if (!port) throw new Error('export-worker must run as a worker thread')
  const post = (message: ExportWorkerMessage): void => port.postMessage(message)
  try {
    const db = openProject(data.dbPath, {
      memoryMap: false,
      ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
    })
    try {
      const result = exportRelease(db, data.dbPath, data.options, {
        progress: (done, total, step) =>
          post({ type: 'progress', done, total, ...(step === undefined ? {} : { step }) }),
        cancelled: () => Atomics.load(data.cancelFlag, 0) === 1,
      })
      post({ type: 'done', result })
    } finally {
      db.close()
    }
  } catch (error) {
    post({ type: 'failed', error: errorInfo(error) })
  }
}

main(workerData as ExportWorkerData)
