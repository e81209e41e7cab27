import { useState } from 'react'
import { WRITE_JOB_KINDS } from '../../../../shared/contract/jobs'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { cancelJob, jobs } from './jobs'
import { JobProgressBar, JobRates } from './JobProgressView'

/**
 * The rating change under way (a bulk rating, a revert) while its dialog waits for it: progress and
 * a Cancel that rolls it back. Changes from this page run one at a time, so the newest running
 * write job is the one the dialog started.
 */
export function WriteJobProgress() {
  const all = useStore(jobs)
  const [cancelling, setCancelling] = useState(false)
  const job = [...all.values()]
    .reverse()
    .find((j) => j.state === 'running' && WRITE_JOB_KINDS.includes(j.kind))
  if (!job) return null
  return (
    <div className="write-job" data-testid="write-job">
      <div className="job-head">
        <span className="job-title">{job.title}</span>
        <button
          className="small"
          data-testid="write-job-cancel"
          disabled={cancelling}
          title={job.cancel.hint || undefined}
          onClick={() => {
            setCancelling(true)
            cancelJob(job.id).catch((e: unknown) => {
              setCancelling(false)
              showError('Cancelling the change', e)
            })
          }}
        >
          {cancelling ? 'Cancelling…' : job.cancel.label}
        </button>
      </div>
      <JobProgressBar job={job} testId="write-job-progress" />
      <JobRates job={job} />
    </div>
  )
}
