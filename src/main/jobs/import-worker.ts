import { parentPort, workerData } from 'node:worker_threads'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import type { ImportResult } from '../../shared/contract/imports'
import { errorInfo } from '../api/errorInfo'
import { openProject } from '../db/connection'
import {
  type ImportFile,
  type ImportOptions,
  type ImportProgress,
  importFiles,
} from '../importers/run'
import { type ProtoqaImportFile, importProtoqaFiles } from '../importers/protoqa/run'
import type { ProtoqaImportResult } from '../../shared/protoqa/model'
import { indexSearchText } from '../search/indexer'

/** Which importer the thread runs: GLUCOSE files (then their search indexing), or ProtoQA files. */
export type ImportWork =
  | { collection?: 'glucose'; files: ImportFile[]; options: ImportOptions }
  | { collection: 'protoqa'; files: ProtoqaImportFile[]; options: { author?: string } }

export type ImportWorkerData = ImportWork & {
  dbPath: string
  cancelFlag: Int32Array
  nativeBinding: string | null
}

export type ImportWorkerMessage =
  | ({ type: 'progress' } & ImportProgress)
  | { type: 'indexing'; done: number; total: number }
  | { type: 'done'; result: ImportResult }
  | { type: 'protoqa-done'; result: ProtoqaImportResult }
  | { type: 'failed'; error: ApiErrorInfo }

function main(data: ImportWorkerData): void {
  const port = parentPort
  if (!port) throw new Error('import-worker must run as a worker thread')
  const post = (message: ImportWorkerMessage): void => port.postMessage(message)
  try {
    const db = openProject(data.dbPath, {
      memoryMap: false,
      ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
    })
    try {
      const hooks = {
        progress: (p: ImportProgress) => post({ type: 'progress', ...p }),
        cancelled: () => Atomics.load(data.cancelFlag, 0) === 1,
      }
      if (data.collection === 'protoqa') {
        post({
          type: 'protoqa-done',
          result: importProtoqaFiles(db, data.files, data.options, hooks),
        })
        return
      }
      const result = importFiles(db, data.files, data.options, hooks)
      // The rows are committed; their text goes into the full-text index in small steps.
      indexSearchText(db, {
        progress: (done, total) => post({ type: 'indexing', done, total }),
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

main(workerData as ImportWorkerData)
