import { parentPort, workerData } from 'node:worker_threads'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import { errorInfo } from '../api/errorInfo'
import type { ImportProgress } from '../importers/run'
import { type ImportWork, importIntoProject } from '../importers/intoProject'

export type ImportWorkerData = ImportWork & {
  dbPath: string
  cancelFlag: Int32Array
  nativeBinding: string | null
}

export type ImportWorkerMessage =
  | ({ type: 'progress' } & ImportProgress)
  | { type: 'indexing'; done: number; total: number }
  /** The import's result (`ImportWorkResult` of the work sent). */
  | { type: 'done'; result: unknown }
  | { type: 'failed'; error: ApiErrorInfo }

/** One import on its own connection: the thread that started it stays free. */
async function main(data: ImportWorkerData): Promise<void> {
  const port = parentPort
  if (!port) throw new Error('import-worker must run as a worker thread')
  const post = (message: ImportWorkerMessage): void => port.postMessage(message)
  try {
    const result = await importIntoProject(
      data.dbPath,
      data,
      {
        progress: (p) => post({ type: 'progress', ...p }),
        indexing: (done, total) => post({ type: 'indexing', done, total }),
        cancelled: () => Atomics.load(data.cancelFlag, 0) === 1,
      },
      data.nativeBinding ? { nativeBinding: data.nativeBinding } : {},
    )
    post({ type: 'done', result })
  } catch (error) {
    post({ type: 'failed', error: errorInfo(error) })
  }
}

void main(workerData as ImportWorkerData)
