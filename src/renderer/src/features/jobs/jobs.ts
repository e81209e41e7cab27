import type { JobProgress } from '../../../../shared/contract/jobs'
import { api, onEvent } from '../../api'
import { createStore } from '../../lib/store'

/** Every job main told us about, by id, newest last. Fed by `job.progress` events. */
export const jobs = createStore<ReadonlyMap<string, JobProgress>>(new Map())

function put(progress: JobProgress): void {
  jobs.set((all) => {
    const previous = all.get(progress.id)
    // Events can overtake each other; never let a stale running report undo a final state.
    if (previous && previous.state !== 'running' && progress.state === 'running') return all
    const next = new Map(all)
    next.set(progress.id, progress)
    return next
  })
}

let started = false

/** Starts listening (once); also picks up jobs that were running before the page loaded. */
export function startJobFeed(): void {
  if (started) return
  started = true
  onEvent('job.progress', put)
  api.jobs
    .list({})
    .then((list) => list.forEach(put))
    .catch(() => {
      // No project yet or main not ready: events will fill the tray.
    })
}

/**
 * What cancelling a job does at this point. An import's rows are committed before their text is
 * indexed for search (its second phase, counted in annotations); until then a cancel rolls the
 * import back, from then on it only stops the indexing, and the rest is indexed when the project
 * is next opened or searched.
 */
export function cancelAction(job: JobProgress | undefined): {
  stopsIndexing: boolean
  title?: string
} {
  if (job?.kind !== 'import') return { stopsIndexing: false }
  return job.unit === 'annotations'
    ? {
        stopsIndexing: true,
        title:
          'The rows are in the project; the rest of their text is indexed for search when the project is next opened or searched',
      }
    : { stopsIndexing: false, title: 'Stop and leave the project as it was before the import' }
}

export function cancelJob(id: string): Promise<{ cancelled: boolean }> {
  return api.jobs.cancel({ id })
}

/** Waits for a job's final report (from the feed, or by asking main if events were missed). */
export function whenFinished(id: string): Promise<JobProgress> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const job = jobs.get().get(id)
      if (job && job.state !== 'running') {
        resolve(job)
        return true
      }
      return false
    }
    if (check()) return
    const unsubscribe = jobs.subscribe(() => {
      if (check()) {
        unsubscribe()
        clearInterval(poll)
      }
    })
    // Belt and braces: a dropped event stream must not leave the dialog spinning forever.
    const poll = setInterval(() => {
      api.jobs
        .get({ id })
        .then(put)
        .catch(() => undefined)
    }, 2000)
  })
}
