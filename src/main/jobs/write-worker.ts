import { parentPort, workerData } from 'node:worker_threads'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import { errorInfo } from '../api/errorInfo'
import { openProject } from '../db/connection'
import type { WriteProgress } from './writeHooks'
import { type WriteKind, type WriteRequest, runWrite } from './writeTasks'

export interface WriteWorkerData {
  dbPath: string
  kind: WriteKind
  request: WriteRequest<WriteKind>
  cancelFlag: Int32Array
  nativeBinding: string | null
}

export type WriteWorkerMessage =
  | ({ type: 'progress' } & WriteProgress)
  | { type: 'done'; result: unknown }
  | { type: 'failed'; error: ApiErrorInfo }

/** One long write on its own connection: the thread that started it stays free. */
function main(data: WriteWorkerData): void {
  const port = parentPort
  if (!port) throw new Error('write-worker must run as a worker thread')
  const post = (message: WriteWorkerMessage): void => port.postMessage(message)
  try {
    const db = openProject(data.dbPath, {
      memoryMap: false,
      ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
    })
    try {
      const result = runWrite(db, data.kind, data.request, {
        progress: (p) => post({ type: 'progress', ...p }),
        cancelled: () => Atomics.load(data.cancelFlag, 0) === 1,
      })
      // Copy the write's pages into the file here: left to the app's connection, that copy of a
      // bulk write's WAL would block the main thread for as long as the write took.
      db.pragma('wal_checkpoint(PASSIVE)')
      post({ type: 'done', result })
    } finally {
      db.close()
    }
  } catch (error) {
    post({ type: 'failed', error: errorInfo(error) })
  }
}

main(workerData as WriteWorkerData)
