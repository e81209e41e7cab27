import type { JobProgress } from '../../../../shared/contract/jobs'
import {
  formatBytes,
  formatCount,
  formatElapsed,
  formatMegabytesPerSecond,
  formatRate,
  percentDone,
} from '../../lib/format'

/** A determinate bar when the total is known, an indeterminate one otherwise. */
export function JobProgressBar({ job, testId }: { job: JobProgress; testId?: string }) {
  const percent = job.state === 'succeeded' ? 100 : percentDone(job.done, job.total)
  return (
    <div
      className={`progress ${percent === null ? 'progress-indeterminate' : ''}`}
      role="progressbar"
      aria-label={job.title}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent === null ? undefined : Math.round(percent)}
      data-testid={testId}
      data-state={job.state}
    >
      <div className="progress-fill" style={{ width: `${percent ?? 30}%` }} />
    </div>
  )
}

/** `12,400 rows/s · 8.1 MB/s · 40 MB of 120 MB`, the step under way; once done, what the job did. */
export function JobRates({ job }: { job: JobProgress }) {
  if (job.state === 'failed' || job.state === 'cancelled') {
    const message =
      job.error?.message ?? (job.state === 'failed' ? 'Failed' : 'Cancelled; nothing was changed')
    return (
      <div className="job-rates job-message" title={message}>
        {message}
      </div>
    )
  }
  if (job.state === 'succeeded') {
    return (
      <div className="job-rates" data-testid="job-summary">
        <span className="job-detail" title={job.detail}>
          {job.detail}
        </span>
        {job.finishedAt !== null && (
          <span className="job-counts">in {formatElapsed(job.finishedAt - job.startedAt)}</span>
        )}
      </div>
    )
  }
  if (job.done === 0) {
    // Waiting for the job before it, or not started yet: nothing to count.
    return (
      <div className="job-rates">
        <span className="job-detail">{job.detail || 'Starting…'}</span>
      </div>
    )
  }
  const parts: string[] = []
  const recordUnit = job.unit === 'bytes' ? 'rows' : job.unit
  if (job.rate > 0) parts.push(formatRate(job.rate, recordUnit))
  if (job.bytesPerSecond !== null && job.bytesPerSecond > 0) {
    parts.push(formatMegabytesPerSecond(job.bytesPerSecond))
  }
  if (job.unit === 'bytes') {
    parts.push(
      job.total === null
        ? formatBytes(job.done)
        : `${formatBytes(job.done)} of ${formatBytes(job.total)}`,
    )
  } else {
    parts.push(
      job.total === null
        ? formatCount(job.done)
        : `${formatCount(job.done)} of ${formatCount(job.total)}`,
    )
  }
  return (
    <div className="job-rates">
      <span className="job-counts">{parts.join(' · ')}</span>
      {job.detail && <span className="job-detail">{job.detail}</span>}
    </div>
  )
}
