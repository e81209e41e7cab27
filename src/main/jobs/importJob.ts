import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ImportResult } from '../../shared/contract/imports'
import type { CancelEffect, JobProgress } from '../../shared/contract/jobs'
import { UserError, isApiErrorInfo } from '../../shared/contract/errors'
import { openProject } from '../db/connection'
import { getDefaultNativeBinding } from '../db/connection'
import {
  type ImportFile,
  type ImportHooks,
  type ImportOptions,
  type ImportProgress,
  importFiles,
} from '../importers/run'
import { indexSearchText } from '../search/indexer'
import { describeAdded } from '../../shared/summaries'
import type { Session } from '../session'
import type { JobContext } from './manager'
import type { ImportWork, ImportWorkerData, ImportWorkerMessage } from './import-worker'

const workerScript = fileURLToPath(new URL('./import-worker.js', import.meta.url))

/**
 * Starts an import as a job. In the built app it runs on a worker thread with its own connection,
 * so the window and the grid stay responsive; the project's WAL lets both work at once.
 */
export function startImportJob(
  session: Session,
  dbPath: string,
  files: readonly ImportFile[],
  options: ImportOptions,
): JobProgress {
  const title =
    files.length === 1 ? `Importing ${files[0]?.name ?? ''}` : `Importing ${files.length} files`
  return session.jobs.start<ImportResult>({
    kind: 'import',
    title,
    unit: 'bytes',
    run: async (context) => {
      const result = hasImportThread()
        ? await importOnThread<ImportResult>(
            dbPath,
            { collection: 'glucose', files: [...files], options },
            context,
          )
        : await importInProcess(dbPath, files, options, context)
      session.dataChanged()
      return result
    },
    summary: describeAdded,
    cancel: {
      label: 'Cancel import',
      hint: 'Stop and leave the project as it was before the import',
    },
  })
}

/**
 * Once the rows are committed only their full-text indexing is left, and cancelling stops that:
 * the import stays, and the rest of the text is indexed when the project is next opened or
 * searched.
 */
const STOP_INDEXING: CancelEffect = {
  label: 'Stop indexing',
  hint: 'The rows are in the project; the rest of their text is indexed for search when the project is next opened or searched',
}

/** Whether the built import thread is there (unit tests run the sources, without it). */
export function hasImportThread(): boolean {
  return existsSync(workerScript)
}

export function hooksFor(context: JobContext, cancelled: () => boolean): ImportHooks {
  return { progress: (p) => reportImporting(context, p), cancelled }
}

/** Bytes read, the file being read, or the step after the rows (shown at once). */
function reportImporting(context: JobContext, p: ImportProgress): void {
  context.report({
    done: p.bytes,
    total: p.totalBytes,
    records: p.records,
    detail: p.step ?? p.file,
    newStep: p.step !== undefined,
  })
}

function reportIndexing(context: JobContext, done: number, total: number): void {
  context.report({
    done,
    total,
    records: done,
    unit: 'annotations',
    detail: 'Indexing text for search',
    cancel: STOP_INDEXING,
  })
}

/** Used where there is no built worker (unit tests run the sources). */
async function importInProcess(
  dbPath: string,
  files: readonly ImportFile[],
  options: ImportOptions,
  context: JobContext,
): Promise<ImportResult> {
  await Promise.resolve()
  const db = openProject(dbPath, { memoryMap: false })
  try {
    const result = importFiles(
      db,
      files,
      options,
      hooksFor(context, () => context.signal.aborted),
    )
    indexSearchText(db, {
      progress: (done, total) => reportIndexing(context, done, total),
      cancelled: () => context.signal.aborted,
    })
    return result
  } finally {
    db.close()
  }
}

/** Runs an import on the import thread with its own connection; cancel travels through shared memory. */
export function importOnThread<R>(
  dbPath: string,
  work: ImportWork,
  context: JobContext,
): Promise<R> {
  // The worker's loop is synchronous (one transaction), so cancel travels through shared memory.
  const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
  const workerData: ImportWorkerData = {
    ...work,
    dbPath,
    cancelFlag,
    nativeBinding: getDefaultNativeBinding() ?? null,
  }
  const worker = new Worker(workerScript, { workerData })
  const onAbort = (): void => {
    Atomics.store(cancelFlag, 0, 1)
  }
  context.signal.addEventListener('abort', onAbort)
  return new Promise<R>((resolve, reject) => {
    worker.on('message', (message: ImportWorkerMessage) => {
      if (message.type === 'progress') {
        reportImporting(context, message)
      } else if (message.type === 'indexing') {
        reportIndexing(context, message.done, message.total)
      } else if (message.type === 'done' || message.type === 'protoqa-done') {
        resolve(message.result as R)
      } else {
        reject(
          isApiErrorInfo(message.error) ? new UserError(message.error) : new Error('import failed'),
        )
      }
    })
    worker.on('error', reject)
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`import worker exited with code ${code}`))
    })
  }).finally(() => {
    context.signal.removeEventListener('abort', onAbort)
  })
}
