import { parentPort, workerData } from 'node:worker_threads'
import { type ApiErrorInfo, UserError, isApiErrorInfo } from '../../shared/contract/errors'
import { getDefaultNativeBinding, setDefaultNativeBinding } from '../db/connection'
import { errorInfo } from './errorInfo'
import type { JobContext, JobReport } from './manager'
import type { ResourceLimits } from 'node:worker_threads'
import { type ThreadScript, startThread } from './threadScript'

/**
 * One way to run a job's work on a thread of its own: the calling thread starts the thread script
 * with a task's name and plain input, hears its progress as the job's, sets a shared flag when the
 * job is cancelled, and gets back the task's result or its failure (a `UserError` as the same
 * `UserError`). The thread script's body is `serveTask` with its table of tasks.
 */

/** What a task hears from and tells the job that runs it, on whichever thread it runs. */
export interface TaskHooks {
  report(progress: JobReport): void
  cancelled(): boolean
  /** The better-sqlite3 addon the app's connections load (Electron's own build); null: the default. */
  nativeBinding: string | null
}

/** A task: plain data in and out (they cross threads by structured clone). */
export type Task<I, R> = (input: I, hooks: TaskHooks) => R | Promise<R>

/** What the thread is started with. */
export interface TaskThreadData {
  task: string
  input: unknown
  cancelFlag: Int32Array
  nativeBinding: string | null
}

export type TaskThreadMessage =
  | { type: 'progress'; report: JobReport }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; error: ApiErrorInfo }

/** Runs `task` of the thread script `script` on a thread of its own, for the job `context`. */
export function runOnThread<R>(
  script: ThreadScript,
  task: string,
  input: unknown,
  context: JobContext,
  resourceLimits: ResourceLimits = {},
): Promise<R> {
  // A task runs synchronously on its thread (one transaction), so cancel travels through shared memory.
  const cancelFlag = new Int32Array(new SharedArrayBuffer(4))
  const data: TaskThreadData = {
    task,
    input,
    cancelFlag,
    nativeBinding: getDefaultNativeBinding() ?? null,
  }
  const worker = startThread(script, { workerData: data, resourceLimits })
  const onAbort = (): void => {
    Atomics.store(cancelFlag, 0, 1)
  }
  context.signal.addEventListener('abort', onAbort)
  // A cancel that came before the listener: the thread stops at its first check.
  if (context.signal.aborted) onAbort()
  return new Promise<R>((resolve, reject) => {
    worker.on('message', (message: TaskThreadMessage) => {
      if (message.type === 'progress') context.report(message.report)
      else if (message.type === 'done') resolve(message.result as R)
      else {
        reject(
          isApiErrorInfo(message.error)
            ? new UserError(message.error)
            : new Error(`${task} failed`),
        )
      }
    })
    worker.on('error', reject)
    worker.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${task} thread exited with code ${code}`))
    })
  }).finally(() => {
    context.signal.removeEventListener('abort', onAbort)
  })
}

/** The same task on the calling thread, where there is no thread to run it on. */
export async function runHere<I, R>(task: Task<I, R>, input: I, context: JobContext): Promise<R> {
  // A tick first: the job is listed as started before the task takes this thread.
  await Promise.resolve()
  return task(input, {
    report: (r) => context.report(r),
    cancelled: () => context.signal.aborted,
    nativeBinding: null,
  })
}

/** The body of a thread script: runs the task its data names, from `tasks`, and posts the outcome. */
export function serveTask(tasks: Readonly<Record<string, Task<never, unknown>>>): void {
  const port = parentPort
  if (!port) throw new Error('a task thread script must run as a worker thread')
  const data = workerData as TaskThreadData
  // What the task opens without a project (an import's keys on disk, its read-ahead thread's) takes
  // the runtime's addon too.
  if (data.nativeBinding) setDefaultNativeBinding(data.nativeBinding)
  const post = (message: TaskThreadMessage): void => port.postMessage(message)
  const hooks: TaskHooks = {
    report: (report) => post({ type: 'progress', report }),
    cancelled: () => Atomics.load(data.cancelFlag, 0) === 1,
    nativeBinding: data.nativeBinding,
  }
  const task = tasks[data.task] as Task<unknown, unknown> | undefined
  Promise.resolve()
    .then(() => {
      if (!task) throw new Error(`no task ${data.task} on this thread`)
      return task(data.input, hooks)
    })
    .then(
      (result) => post({ type: 'done', result }),
      (error: unknown) => post({ type: 'failed', error: errorInfo(error) }),
    )
    .catch((error: unknown) => {
      // The result could not cross (not plain data): a failure of the task, said as one.
      post({ type: 'failed', error: errorInfo(error) })
    })
}
