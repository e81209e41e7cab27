import { useEffect } from 'react'
import type { JobProgress } from '../../../../shared/contract/jobs'
import { api, onEvent } from '../../api'
import { createStore } from '../../lib/store'

/** Every job main told us about, by id, newest last. Fed by `job.progress` events. */
export const jobs = createStore<ReadonlyMap<string, JobProgress>>(new Map())

/**
 * Jobs a page on screen shows itself, with their progress and Cancel (an export on the Release
 * page): the job tray leaves them out rather than cover that page's fields with a copy.
 */
export const jobsShownInPage = createStore<ReadonlySet<string>>(new Set())

/** While the calling component is mounted, job `id` is shown by it and not in the tray. */
export function useShownInPage(id: string | null): void {
  useEffect(() => {
    if (id === null) return
    jobsShownInPage.set((shown) => new Set([...shown, id]))
    return () => jobsShownInPage.set((shown) => new Set([...shown].filter((j) => j !== id)))
  }, [id])
}

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
