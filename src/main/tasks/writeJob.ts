import type { CancelEffect, JobProgress } from '../../shared/contract/jobs'
import { runHere } from '../jobs/runOnThread'
import type { Session } from '../session'
import { asWriteHooks, runTask } from './threadTasks'
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
      // A project in memory has no file for a thread to open: the same task, on this thread.
      const result = db.memory
        ? await runHere(
            (request: WriteRequest<K>, hooks) =>
              runWrite(db, spec.kind, request, asWriteHooks(hooks)),
            spec.request,
            context,
          )
        : ((await runTask(
            'write',
            { dbPath: path, kind: spec.kind, request: spec.request },
            context,
            'thread',
          )) as WriteResult<K>)
      if (spec.changedData?.(result) ?? true) session.dataChanged()
      return result
    },
  })
}
