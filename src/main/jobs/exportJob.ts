import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { UserError, isApiErrorInfo } from '../../shared/contract/errors'
import type { JobProgress } from '../../shared/contract/jobs'
import type { ParsedReleaseOptions, ReleaseResult } from '../../shared/contract/release'
import { getDefaultNativeBinding, openProject } from '../db/connection'
import { type ExportHooks, exportRelease } from '../release/export'
import type { Session } from '../session'
import type { ExportWorkerData, ExportWorkerMessage } from './export-worker'

const workerScript = fileURLToPath(new URL('./export-worker.js', import.meta.url))

/** Where an export's progress goes, and how it learns it was cancelled. */
export interface ExportProgress {
  signal: AbortSignal
  report(done: number, total: number, step?: string): void
}

/**
 * Exports a release from the project file at `dbPath`: on a worker thread with its own connection
 * in the built app and command line (the window stays responsive), in this thread where there is
 * no built worker (tests run the sources).
 */
export function runExport(
  dbPath: string,
  options: ParsedReleaseOptions,
  progress: ExportProgress,
): Promise<ReleaseResult> {
  return existsSync(workerScript)
    ? exportOnWorker(dbPath, options, progress)
    : exportInProcess(dbPath, options, progress)
}

/** Starts an export as a job of the session: progress in annotations, cancel leaves nothing. */
export function startExportJob(
  session: Session,
  dbPath: string,
  options: ParsedReleaseOptions,
): JobProgress {
  return session.jobs.start<ReleaseResult>({
    kind: 'export',
    title: 'Exporting a release',
    unit: 'annotations',
    run: (context) =>
      runExport(dbPath, options, {
        signal: context.signal,
        report: (done, total, step) =>
          context.report({
            done,
            total: total > 0 ? total : null,
            ...(step === undefined ? {} : { detail: step, newStep: true }),
          }),
      }),
    summary: (result) =>
      `Wrote ${result.files.length} file${result.files.length === 1 ? '' : 's'} to ${result.out}`,
    cancel: { label: 'Cancel export', hint: 'Stop; no release folder is written' },
  })
}

async function exportInProcess(
  dbPath: string,
  options: ParsedReleaseOptions,
  progress: ExportProgress,
): Promise<ReleaseResult> {
  await Promise.resolve()
  const db = openProject(dbPath, { memoryMap: false })
  try {
    const hooks: ExportHooks = {
      progress: (done, total, step) => progress.report(done, total, step),
      cancelled: () => progress.signal.aborted,
    }
    return exportRelease(db, dbPath, options, hooks)
  } finally {
    db.close()
  }
}

function exportOnWorker(
  dbPath: string,
  options: ParsedReleaseOptions,
  progress: ExportProgress,
): Promise<ReleaseResult> {
  // The worker's loop is synchronous, so cancel travels through shared memory.
  const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
  const workerData: ExportWorkerData = {
    dbPath,
    options,
    cancelFlag,
    nativeBinding: getDefaultNativeBinding() ?? null,
  }
  const worker = new Worker(workerScript, { workerData })
  const onAbort = (): void => {
    Atomics.store(cancelFlag, 0, 1)
  }
  if (progress.signal.aborted) onAbort()
  progress.signal.addEventListener('abort', onAbort)
  return new Promise<ReleaseResult>((resolve, reject) => {
    worker.on('message', (message: ExportWorkerMessage) => {
      if (message.type === 'progress') progress.report(message.done, message.total, message.step)
      else if (message.type === 'done') resolve(message.result)
      else {
        reject(
          isApiErrorInfo(message.error) ? new UserError(message.error) : new Error('export failed'),
        )
      }
    })
    worker.on('error', reject)
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`export worker exited with code ${code}`))
    })
  }).finally(() => {
    progress.signal.removeEventListener('abort', onAbort)
  })
}
