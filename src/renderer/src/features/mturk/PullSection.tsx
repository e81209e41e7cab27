import { useEffect, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import type {
  MTurkPullResult,
  MTurkSummary,
  PullSelection,
} from '../../../../shared/contract/mturk'
import { api } from '../../api'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { formatCount, plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { JobProgressBar, JobRates } from '../jobs/JobProgressView'
import { describePull } from '../../../../shared/summaries'
import { cancelJob, jobs } from '../jobs/jobs'
import { ErrorText } from '../messages/Messages'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { FieldMappingField } from './FieldMappingField'

type Scope = 'all' | 'type' | 'title'

export interface PullTarget {
  scope: Scope
  text: string
}

/**
 * Pull: which HITs (all, by HIT type id, by title text), how their form fields map onto columns,
 * and how (everything, or only what changed since the last pull), a progress bar with Cancel, and
 * what the pull added.
 */
export function PullSection({
  target,
  onTarget,
}: {
  target: PullTarget
  onTarget: (t: PullTarget) => void
}) {
  const { dataVersion } = useStore(projectState)
  const all = useStore(jobs)
  const [onlyNew, setOnlyNew] = useState(false)
  const [jobId, setJobId] = useState<string | null>(null)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const [summary, setSummary] = useState<MTurkSummary | null>(null)
  const [cancelling, setCancelling] = useState(false)
  // A pull started elsewhere (another window, before the panel opened) is shown too.
  const job = jobId
    ? all.get(jobId)
    : [...all.values()].reverse().find((j) => j.kind === 'pull' && j.state === 'running')
  const running = job?.state === 'running'

  useEffect(() => {
    let live = true
    api.mturk
      .summary({})
      .then((s) => live && setSummary(s))
      .catch((e: unknown) => live && showError('Reading the MTurk summary', e))
    return () => {
      live = false
    }
  }, [dataVersion, job?.state])

  function selection(): PullSelection | null {
    const text = target.text.trim()
    if (target.scope === 'all') return {}
    if (text === '') return null
    if (target.scope === 'title') return { titleContains: text }
    return { hitTypeIds: text.split(/[\s,]+/).filter(Boolean) }
  }

  async function start() {
    const chosen = selection()
    if (!chosen) return
    setError(null)
    setCancelling(false)
    try {
      const { jobId: id } = await api.mturk.pull({ mode: onlyNew ? 'new' : 'all', ...chosen })
      setJobId(id)
    } catch (e) {
      setError(toErrorInfo(e))
    }
  }

  const result = job?.state === 'succeeded' ? (job.result as MTurkPullResult | null) : null
  const interrupted =
    summary?.lastPull &&
    (summary.lastPull.state === 'cancelled' || summary.lastPull.state === 'failed')
  return (
    <section className="mturk-section" aria-label="Pull">
      <h3 className="mturk-heading">Pull submissions</h3>
      <div className="field-row">
        <label className="field">
          <span>HITs</span>
          <select
            data-testid="mturk-pull-scope"
            value={target.scope}
            onChange={(e) => onTarget({ ...target, scope: e.target.value as Scope })}
          >
            <option value="all">All HITs</option>
            <option value="type">By HIT type id</option>
            <option value="title">By title text</option>
          </select>
        </label>
        {target.scope !== 'all' && (
          <label className="field mturk-grow">
            <span>
              {target.scope === 'type' ? 'HIT type ids (comma-separated)' : 'Title contains'}
            </span>
            <input
              data-testid="mturk-pull-filter"
              value={target.text}
              spellCheck={false}
              onChange={(e) => onTarget({ ...target, text: e.target.value })}
            />
          </label>
        )}
      </div>
      <FieldMappingField disabled={running} />
      <label className="check">
        <input
          type="checkbox"
          data-testid="mturk-pull-new"
          checked={onlyNew}
          onChange={(e) => setOnlyNew(e.target.checked)}
        />{' '}
        Only what changed since the last pull (new work and status changes)
      </label>
      <div className="mturk-buttons">
        <button
          className="primary"
          data-testid="mturk-pull"
          disabled={running || selection() === null}
          onClick={() => void start()}
        >
          {onlyNew ? 'Pull new' : 'Pull'}
        </button>
        {running && job && (
          <button
            data-testid="mturk-pull-cancel"
            disabled={cancelling}
            onClick={() => {
              setCancelling(true)
              cancelJob(job.id).catch((e: unknown) => showError('Cancelling the pull', e))
            }}
          >
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>
      {interrupted && !running && (
        <p className="note warn-text" data-testid="mturk-pull-resumable">
          The last pull stopped after {plural(summary.lastPull?.assignments ?? 0, 'assignment')};
          what it fetched is kept, and pulling again with the same choices continues where it
          stopped.
        </p>
      )}
      {job && (
        <div className="mturk-progress" data-testid="mturk-pull-progress" data-state={job.state}>
          <JobProgressBar job={job} />
          {!result && <JobRates job={job} />}
        </div>
      )}
      {result && (
        <p className="mturk-test mturk-ok" role="status" data-testid="mturk-pull-result">
          {describePull(result)}
        </p>
      )}
      {summary && (
        <p className="note" data-testid="mturk-status-counts">
          In this project: {formatCount(summary.byStatus.Submitted)} Submitted ·{' '}
          {formatCount(summary.byStatus.Approved)} Approved ·{' '}
          {formatCount(summary.byStatus.Rejected)} Rejected
        </p>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="error-message">
          <ErrorText {...errorParts(error)} />
        </div>
      )}
    </section>
  )
}
