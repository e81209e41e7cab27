import type { CancelEffect, JobProgress } from '../../shared/contract/jobs'
import { UserError, isApiErrorInfo } from '../../shared/contract/errors'
import { type Db, getDefaultNativeBinding } from '../db/connection'
import type { Session } from '../session'
import type { JobContext } from './manager'
import { type ThreadScript, startThread, threadScript } from './threadScript'
import type { WriteWorkerData, WriteWorkerMessage } from './write-worker'
import type { WriteProgress } from './writeHooks'
import { type WriteKind, type WriteRequest, type WriteResult, runWrite } from './writeTasks'

export interface WriteJobSpec<K extends WriteKind> {
  kind: K
  request: WriteRequest<K>
  /** What the job does, as the job tray shows it ("Rating 343,853 annotations"). */
  title: string
  /** What it did, in a line, once it succeeded. */
  summary?: (result: WriteResult<K>) => string
  /** Whether the result changed the project (the page then refreshes); by default it did. */
  changedData?: (result: WriteResult<K>) => boolean
  unit?: string
}

const CANCEL_WRITE: CancelEffect = {
  label: 'Cancel',
  hint: 'Stop and leave the ratings as they were: nothing of this change is kept',
}

/**
 * Runs a long write (`writeTasks`) as a job: on a worker thread with its own connection when the
 * project is a file, so the window (or serve mode's server) keeps answering while it writes; with
 * progress, and a cancel that rolls the whole write back. Resolves with the task's result once it
 * is committed; the page hears `project.changed` then.
 */
export function runWriteJob<K extends WriteKind>(
  session: Session,
  spec: WriteJobSpec<K>,
): { progress: JobProgress; result: Promise<WriteResult<K>> } {
  const { path, db } = session.project()
  return session.jobs.launch<WriteResult<K>>({
    kind: spec.kind,
    title: spec.title,
    unit: spec.unit ?? 'annotations',
    cancel: CANCEL_WRITE,
    ...(spec.summary ? { summary: spec.summary } : {}),
    run: async (context) => {
      const found = db.memory ? null : threadScript(import.meta.url, 'write-worker')
      const result = found
        ? await writeOnWorker(found, path, spec, context)
        : await writeHere(db, spec, context)
      if (spec.changedData?.(result) ?? true) session.dataChanged()
      return result
    },
  })
}

function report(context: JobContext, p: WriteProgress): void {
  context.report({ done: p.done, total: p.total, detail: p.detail, newStep: p.done === 0 })
}

/** Where there is no thread to run on (a project in memory): the same task, on this thread. */
async function writeHere<K extends WriteKind>(
  db: Db,
  spec: WriteJobSpec<K>,
  context: JobContext,
): Promise<WriteResult<K>> {
  await Promise.resolve()
  return runWrite(db, spec.kind, spec.request, {
    progress: (p) => report(context, p),
    cancelled: () => context.signal.aborted,
  })
}

function writeOnWorker<K extends WriteKind>(
  found: ThreadScript,
  dbPath: string,
  spec: WriteJobSpec<K>,
  context: JobContext,
): Promise<WriteResult<K>> {
  // The write is one synchronous transaction on the thread, so cancel travels through shared memory.
  const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
  const workerData: WriteWorkerData = {
    dbPath,
    kind: spec.kind,
    request: spec.request,
    cancelFlag,
    nativeBinding: getDefaultNativeBinding() ?? null,
  }
  const worker = startThread(found, { workerData })
  const onAbort = (): void => {
    Atomics.store(cancelFlag, 0, 1)
  }
  context.signal.addEventListener('abort', onAbort)
  // A cancel that came before the listener: the thread stops at its first check.
  if (context.signal.aborted) onAbort()
  return new Promise<WriteResult<K>>((resolve, reject) => {
    worker.on('message', (message: WriteWorkerMessage) => {
      if (message.type === 'progress') {
        report(context, message)
      } else if (message.type === 'done') {
        resolve(message.result as WriteResult<K>)
      } else {
        reject(
          isApiErrorInfo(message.error) ? new UserError(message.error) : new Error('write failed'),
        )
      }
    })
    worker.on('error', reject)
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`write worker exited with code ${code}`))
    })
  }).finally(() => {
    context.signal.removeEventListener('abort', onAbort)
  })
}
