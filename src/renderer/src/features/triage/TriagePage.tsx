import { useCallback, useEffect, useState } from 'react'
import {
  MINIMAL_DIMENSIONS,
  type TriageQueue,
  type TriageReport,
} from '../../../../shared/contract/triage'
import { isDay } from '../../../../shared/filter'
import { api } from '../../api'
import { plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { ratingsVersion } from '../ratings/ratingState'
import { TriageQueueView } from './TriageQueueView'
import { TriageSettingsForm } from './TriageSettingsForm'
import { NO_TIME, WorkerTable } from './WorkerTable'
import './triage.css'

/**
 * Today: per worker figures for a day or range (by default the days since the last triage), and
 * the triage queue: a seeded share of each worker's new submissions, reviewed in the story view.
 */
export function TriagePage() {
  const { dataVersion } = useStore(projectState)
  const [range, setRange] = useState<{ from?: string; to?: string }>({})
  const [report, setReport] = useState<TriageReport | null>(null)
  const [queue, setQueue] = useState<TriageQueue | null>(null)
  const [inQueue, setInQueue] = useState(false)
  const [percent, setPercent] = useState('')

  useEffect(() => {
    let live = true
    api.triage
      .report(range)
      .then((r) => live && setReport(r))
      .catch((e: unknown) => live && showError('Reading the day', e))
    return () => {
      live = false
    }
  }, [range, dataVersion])

  const loadQueue = useCallback(() => {
    api.triage
      .currentQueue({})
      .then(setQueue)
      .catch((e: unknown) => showError('Reading the triage queue', e))
  }, [])
  useEffect(loadQueue, [loadQueue])

  // Undo and redo may take a mark back (or make it again): read the queue shown afresh.
  const queueId = queue?.id
  useEffect(() => {
    if (queueId === undefined) return
    return ratingsVersion.subscribe(() => {
      api.triage
        .queue({ queueId })
        .then(setQueue)
        .catch((e: unknown) => showError('Reading the triage queue', e))
    })
  }, [queueId])

  const start = () => {
    if (!report) return
    const share = percent.trim() === '' ? undefined : Number(percent) / 100
    api.triage
      .startQueue({ from: report.from, to: report.to, ...(share ? { share } : {}) })
      .then((q) => {
        setQueue(q)
        setInQueue(true)
      })
      .catch((e: unknown) => showError('Starting the triage queue', e))
  }

  if (inQueue && queue) {
    return (
      <div className="today">
        <TriageQueueView
          queue={queue}
          onChange={setQueue}
          onLeave={() => {
            setInQueue(false)
            loadQueue()
          }}
        />
      </div>
    )
  }

  const setDay = (key: 'from' | 'to', value: string) => {
    if (!isDay(value) || !report) return
    const next = { from: report.from, to: report.to, [key]: value }
    if (next.from > next.to) next[key === 'from' ? 'to' : 'from'] = value
    setRange(next)
  }

  return (
    <div className="today" data-testid="today">
      <div className="today-bar">
        <label className="field-inline">
          From
          <input
            type="date"
            value={report?.from ?? ''}
            data-testid="today-from"
            onChange={(e) => setDay('from', e.target.value)}
          />
        </label>
        <label className="field-inline">
          to
          <input
            type="date"
            value={report?.to ?? ''}
            data-testid="today-to"
            onChange={(e) => setDay('to', e.target.value)}
          />
        </label>
        <button onClick={() => setRange({})} title="The days since the last triage queue">
          Since last triage
        </button>
        <span className="note">
          {report?.lastTriagedDay ? `last triage up to ${report.lastTriagedDay}` : 'no triage yet'}
        </span>
        <span className="toolbar-spacer" />
        {queue && (
          <button data-testid="triage-resume" onClick={() => setInQueue(true)}>
            Resume queue ({queue.items.filter((i) => i.reviewedAt !== null).length} of{' '}
            {queue.items.length})
          </button>
        )}
        <label
          className="field-inline"
          title="Share of each worker's new submissions (at least one)"
        >
          Sample
          <input
            type="number"
            min={1}
            max={100}
            value={percent}
            placeholder={report ? String(report.settings.queueShare * 100) : '5'}
            data-testid="triage-percent"
            onChange={(e) => setPercent(e.target.value)}
          />
          %
        </label>
        <button
          className="primary"
          data-testid="triage-start"
          disabled={!report || report.workers.length === 0}
          onClick={start}
        >
          Start triage queue
        </button>
      </div>
      {!report ? (
        <div className="empty-state">Loading…</div>
      ) : report.workers.length === 0 ? (
        <div className="empty-state">
          No submissions from {report.from} to {report.to}.
        </div>
      ) : (
        <>
          <UntimedNote report={report} />
          <WorkerTable report={report} />
        </>
      )}
      {report && (
        <details className="today-settings">
          <summary>Flag thresholds and queue share</summary>
          <TriageSettingsForm
            key={JSON.stringify(report.settings)}
            settings={report.settings}
            onSaved={() => setRange((r) => ({ ...r }))}
          />
        </details>
      )}
    </div>
  )
}

/**
 * Files without MTurk times (GLUCOSE's release files) leave a worker's median time empty: say so,
 * and that "rushing" then rests on the share of minimal submissions alone.
 */
function UntimedNote({ report }: { report: TriageReport }) {
  const untimed = report.workers.filter((w) => w.medianWorkSeconds === null).length
  if (untimed === 0) return null
  const all = untimed === report.workers.length
  return (
    <p className="note today-untimed" data-testid="today-untimed">
      Median time “{NO_TIME}”{all ? '' : ` for ${plural(untimed, 'worker')}`}:{' '}
      {all ? 'these' : 'their'} submissions carry no MTurk accept and submit times (release files do
      not; a pull from MTurk does), so “rushing” rests on the share of minimal submissions alone (at
      least {Math.round(report.settings.rushMinimalShare * 100)}% with ≤ {MINIMAL_DIMENSIONS}{' '}
      dimensions)
      {all ? '' : ' for them'}.
    </p>
  )
}
