import { useEffect, useState } from 'react'
import type { JobProgress } from '../../../../shared/contract/jobs'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { cancelJob, jobs, jobsShownInPage } from './jobs'
import { JobProgressBar, JobRates } from './JobProgressView'

const LINGER_MS = 5000

/**
 * Running jobs (and, for a few seconds, how they ended), each with progress and Cancel; a job the
 * page on screen shows itself is left to that page.
 */
export function JobTray() {
  const all = useStore(jobs)
  const inPage = useStore(jobsShownInPage)
  const [now, setNow] = useState(() => Date.now())
  const shown = [...all.values()].filter(
    (j) =>
      !inPage.has(j.id) &&
      (j.state === 'running' || (j.finishedAt !== null && now - j.finishedAt < LINGER_MS)),
  )
  const lingering = shown.some((j) => j.state !== 'running')

  useEffect(() => {
    if (!lingering) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [lingering])

  if (shown.length === 0) return null
  return (
    <div className="job-tray" role="region" aria-label="Jobs" data-testid="job-tray">
      {shown.map((job) => (
        <JobRow key={job.id} job={job} />
      ))}
    </div>
  )
}

function JobRow({ job }: { job: JobProgress }) {
  const [cancelling, setCancelling] = useState(false)
  const running = job.state === 'running'
  return (
    <div className={`job job-${job.state}`} data-testid="job">
      <div className="job-head">
        <span className="job-title">{job.title}</span>
        <span className="job-state">
          {running ? (cancelling ? 'Cancelling…' : '') : stateLabel(job)}
        </span>
        {running && (
          <button
            className="small"
            disabled={cancelling}
            title={job.cancel.hint || undefined}
            onClick={() => {
              setCancelling(true)
              cancelJob(job.id).catch((e: unknown) => {
                setCancelling(false)
                showError('Cancelling the job', e)
              })
            }}
          >
            {job.cancel.label}
          </button>
        )}
      </div>
      <JobProgressBar job={job} />
      <JobRates job={job} />
    </div>
  )
}

function stateLabel(job: JobProgress): string {
  if (job.state === 'succeeded') return 'Done'
  if (job.state === 'cancelled') return 'Cancelled'
  return 'Failed'
}
