import type { ImportResult } from '../../shared/contract/imports'
import type { CancelEffect, JobProgress } from '../../shared/contract/jobs'
import { UserError, isApiErrorInfo } from '../../shared/contract/errors'
import { getDefaultNativeBinding } from '../db/connection'
import { type ImportWork, type ImportWorkResult, importIntoProject } from '../importers/intoProject'
import type { ImportFile, ImportOptions, ImportProgress } from '../importers/run'
import { describeAdded } from '../../shared/summaries'
import type { Session } from '../session'
import type { JobContext } from './manager'
import type { ImportWorkerData, ImportWorkerMessage } from './import-worker'
import { type ThreadScript, startThread, threadScript } from './threadScript'

/**
 * Where an import runs. `thread`: on the import thread with its own connection, so the window
 * and the grid stay responsive (the project's WAL lets both work at once); the built thread, or
 * its sources loaded through tsx. `here`: on the calling thread. `auto`: the built thread where
 * the app is built, else here (unit tests run the sources, and loading them on a thread costs
 * seconds).
 */
export type ImportThread = 'auto' | 'thread' | 'here'

/** Starts an import of GLUCOSE files as a job. */
export function startImportJob(
  session: Session,
  dbPath: string,
  files: readonly ImportFile[],
  options: ImportOptions,
  thread: ImportThread = 'auto',
): JobProgress {
  const title =
    files.length === 1 ? `Importing ${files[0]?.name ?? ''}` : `Importing ${files.length} files`
  return session.jobs.start<ImportResult>({
    kind: 'import',
    title,
    unit: 'bytes',
    run: async (context) => {
      const work = { collection: 'glucose' as const, files: [...files], options }
      const result = await runImport(dbPath, work, context, thread)
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

/**
 * Runs an import for a job, on the thread `thread` chooses: the job hears the same progress
 * (bytes read, then the steps, then the indexing), its cancel rolls the import back (or stops
 * the indexing), and bad input fails it with the same `UserError` on either thread.
 */
export async function runImport<W extends ImportWork>(
  dbPath: string,
  work: W,
  context: JobContext,
  thread: ImportThread = 'auto',
): Promise<ImportWorkResult<W>> {
  const script =
    thread === 'here'
      ? null
      : threadScript(import.meta.url, 'import-worker', { sources: thread === 'thread' })
  if (script) return importOnThread(script, dbPath, work, context)
  if (thread === 'thread') throw new Error('the import thread script is not there')
  // A tick first: the job is listed as started before the import takes this thread.
  await Promise.resolve()
  return importIntoProject(dbPath, work, {
    progress: (p) => reportImporting(context, p),
    indexing: (done, total) => reportIndexing(context, done, total),
    cancelled: () => context.signal.aborted,
  })
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

/** Runs an import on the import thread with its own connection. */
function importOnThread<W extends ImportWork>(
  script: ThreadScript,
  dbPath: string,
  work: W,
  context: JobContext,
): Promise<ImportWorkResult<W>> {
  // The worker's loop is synchronous (one transaction), so cancel travels through shared memory.
  const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
  const workerData: ImportWorkerData = {
    ...work,
    dbPath,
    cancelFlag,
    nativeBinding: getDefaultNativeBinding() ?? null,
  }
  const worker = startThread(script, { workerData })
  const onAbort = (): void => {
    Atomics.store(cancelFlag, 0, 1)
  }
  if (context.signal.aborted) onAbort()
  else context.signal.addEventListener('abort', onAbort)
  return new Promise<ImportWorkResult<W>>((resolve, reject) => {
    worker.on('message', (message: ImportWorkerMessage) => {
      if (message.type === 'progress') {
        reportImporting(context, message)
      } else if (message.type === 'indexing') {
        reportIndexing(context, message.done, message.total)
      } else if (message.type === 'done') {
        resolve(message.result as ImportWorkResult<W>)
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
