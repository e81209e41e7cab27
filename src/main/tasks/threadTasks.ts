import type { CancelEffect } from '../../shared/contract/jobs'
import type { ResourceLimits } from 'node:worker_threads'
import type { ParsedReleaseOptions, ReleaseResult } from '../../shared/contract/release'
import type { OpenOptions } from '../db/connection'
import type { ImportWork } from '../importers/intoProject'
import type { JoinResult } from '../team/join'
import type { ImportProgress } from '../importers/run'
import type { JobContext, JobReport } from '../jobs/manager'
import { type TaskHooks, runHere, runOnThread } from '../jobs/runOnThread'
import { threadScript } from '../jobs/threadScript'
import type { WriteHooks } from '../jobs/writeHooks'
import type { WriteKind, WriteRequest } from './writeTasks'

/**
 * The work a job runs on the task thread (`task-worker`), by name: each takes plain data and the
 * thread's hooks and returns plain data. Each loads its modules when it runs, so the thread loads
 * what its task needs and no more (an import never loads the release writers, the policy sandbox
 * or zod). A new kind of work on a thread is one entry here, then `runTask`.
 */
export const threadTasks = {
  /** An import into the project file (all of it or nothing), then its new text indexed. */
  async import(
    input: { dbPath: string; work: ImportWork; create?: boolean },
    hooks: TaskHooks,
  ): Promise<unknown> {
    const { importIntoProject } = await import('../importers/intoProject')
    return importIntoProject(
      input.dbPath,
      input.work,
      {
        progress: (p) => hooks.report(importReport(p)),
        indexing: (done, total) => hooks.report(indexingReport(done, total)),
        cancelled: () => hooks.cancelled(),
      },
      { ...opening(hooks), ...(input.create ? { create: true } : {}) },
    )
  },

  /** A release written from the project file into its folder (none when it fails). */
  async export(
    input: { dbPath: string; options: ParsedReleaseOptions },
    hooks: TaskHooks,
  ): Promise<ReleaseResult> {
    const [{ openProject }, { exportRelease }] = await Promise.all([
      import('../db/connection'),
      import('../release/export'),
    ])
    // Rows are read once, in order; stories by key: a small cache holds what is read again.
    const db = openProject(input.dbPath, { memoryMap: false, cacheMb: 8, ...opening(hooks) })
    try {
      return exportRelease(db, input.dbPath, input.options, {
        progress: (done, total, step) =>
          hooks.report({
            done,
            total: total > 0 ? total : null,
            ...(step === undefined ? {} : { detail: step, newStep: true }),
          }),
        cancelled: () => hooks.cancelled(),
      })
    } finally {
      db.close()
    }
  },

  /**
   * A member joins a team into a new project file (none is left when it fails or is cancelled):
   * the collection arrives by COPY and is written on this thread, so the window stays responsive.
   */
  async join(
    input: { path: string; server: string; name: string },
    hooks: TaskHooks,
  ): Promise<JoinResult> {
    const [{ joinTeam }, { CancelledError }] = await Promise.all([
      import('../team/join'),
      import('../jobs/cancel'),
    ])
    let last = ''
    return joinTeam(
      input.path,
      { server: input.server, name: input.name },
      (step, done, total) => {
        if (hooks.cancelled()) throw new CancelledError('Cancelled; no project file was made.')
        hooks.report({ done, total, detail: step, newStep: step !== last })
        last = step
      },
      opening(hooks),
    )
  },

  /** A long write (`writeTasks`) in one transaction on a connection of its own. */
  async write(
    input: { dbPath: string; kind: WriteKind; request: WriteRequest<WriteKind> },
    hooks: TaskHooks,
  ): Promise<unknown> {
    const [{ openProject }, { runWrite }] = await Promise.all([
      import('../db/connection'),
      import('./writeTasks'),
    ])
    const db = openProject(input.dbPath, { memoryMap: false, ...opening(hooks) })
    try {
      const result = runWrite(db, input.kind, input.request, asWriteHooks(hooks))
      // Copy the write's pages into the file here: left to the app's connection, that copy of a
      // bulk write's WAL would block the main thread for as long as the write took.
      db.pragma('wal_checkpoint(PASSIVE)')
      return result
    } finally {
      db.close()
    }
  },
}

export type TaskName = keyof typeof threadTasks
type TaskInput<K extends TaskName> = Parameters<(typeof threadTasks)[K]>[0]
type TaskResult<K extends TaskName> = Awaited<ReturnType<(typeof threadTasks)[K]>>

/**
 * Where a task runs. `thread`: on the task thread with its own connection, so the window and the
 * grid stay responsive (the project's WAL lets both work at once); the built thread, or its
 * sources loaded through tsx. `here`: on the calling thread. `auto`: the built thread where the
 * app is built, else here (unit tests run the sources, and loading them on a thread costs seconds).
 */
export type TaskThread = 'auto' | 'thread' | 'here'

/**
 * Old-generation caps by task. An export's live data is small (the names of workers, the stories
 * last read, a Parquet file's row-group metadata), but its garbage, the Parquet writer's above
 * all, grows the heap to ~420 MB at a million annotations unless V8 is told to collect sooner.
 * Left 400 MB, a ten-million export's thread took it (372 MB for the process): 192 MB keeps the
 * job under 300 MB. An import keeps 30–40 MB live (its rows go to the project, its keys and file
 * ratings to disk), but left uncapped its garbage took a ten-million import to 437 MB; capped at
 * 192 MB it peaked at 292 MB. Its young generation stays V8's usual 16 MB: its rows die young,
 * and the threads' 6 MB promoted them, which cost 15% more time (benchmarks.md, "Peak memory of
 * large jobs at ten million").
 */
const TASK_LIMITS: Partial<Record<TaskName, ResourceLimits>> = {
  export: { maxOldGenerationSizeMb: 192 },
  import: { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 },
}

/** Runs a task for the job `context` on the thread `where` chooses; the job hears its progress. */
export function runTask<K extends TaskName>(
  task: K,
  input: TaskInput<K>,
  context: JobContext,
  where: TaskThread = 'auto',
): Promise<TaskResult<K>> {
  const script =
    where === 'here'
      ? null
      : threadScript(import.meta.url, 'task-worker', { sources: where === 'thread' })
  if (script) return runOnThread(script, task, input, context, TASK_LIMITS[task] ?? {})
  if (where === 'thread') throw new Error('the task thread script is not there')
  const run = threadTasks[task] as (input: TaskInput<K>, hooks: TaskHooks) => Promise<TaskResult<K>>
  return runHere(run, input, context)
}

function opening(hooks: TaskHooks): Pick<OpenOptions, 'nativeBinding'> {
  return hooks.nativeBinding ? { nativeBinding: hooks.nativeBinding } : {}
}

/** A write's steps as the job shows them. */
export function asWriteHooks(hooks: Pick<TaskHooks, 'report' | 'cancelled'>): WriteHooks {
  return {
    progress: (p) =>
      hooks.report({ done: p.done, total: p.total, detail: p.detail, newStep: p.done === 0 }),
    cancelled: () => hooks.cancelled(),
  }
}

/** Bytes (or items) read, the file being read, or the step after the rows (shown at once). */
function importReport(p: ImportProgress): JobReport {
  return {
    done: p.done,
    total: p.total,
    unit: p.unit,
    records: p.records,
    detail: p.step ?? p.file,
    newStep: p.step !== undefined,
  }
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

function indexingReport(done: number, total: number): JobReport {
  return {
    done,
    total,
    records: done,
    unit: 'annotations',
    detail: 'Indexing text for search',
    cancel: STOP_INDEXING,
  }
}
