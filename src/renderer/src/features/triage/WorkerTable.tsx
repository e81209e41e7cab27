import { useState } from 'react'
import type {
  TriageFlag,
  TriageReport,
  TriageSettings,
  TriageWorker,
} from '../../../../shared/contract/triage'
import { showWorkerInReview } from '../shell/navigation'
import { largest } from '../../../../shared/lists'

type SortKey =
  'workerId' | 'submissions' | 'avgDimensions' | 'medianWorkSeconds' | 'minimalShare' | 'flags'

const COLUMNS: Array<{ key: SortKey; label: string; title: string; numeric?: boolean }> = [
  {
    key: 'workerId',
    label: 'Worker',
    title: 'Open the worker in the review grid, with their panel',
  },
  { key: 'submissions', label: 'New', title: 'Submissions in the range', numeric: true },
  { key: 'avgDimensions', label: 'Dims', title: 'Dimensions filled per submission', numeric: true },
  {
    key: 'medianWorkSeconds',
    label: 'Median time',
    title: 'Median of submit − accept (MTurk times)',
    numeric: true,
  },
  {
    key: 'minimalShare',
    label: 'Minimal',
    title: 'Share of submissions with at most two dimensions',
    numeric: true,
  },
  { key: 'flags', label: 'Flags', title: 'Rushing and new workers (thresholds in the settings)' },
]

function value(w: TriageWorker, key: SortKey): number | string {
  if (key === 'flags') return w.flags.length
  if (key === 'medianWorkSeconds') return w.medianWorkSeconds ?? -1
  return w[key]
}

/** Shown for a worker whose submissions carry no MTurk accept and submit times. */
export const NO_TIME = '–'

function formatSeconds(s: number | null): string {
  if (s === null) return NO_TIME
  const m = Math.floor(s / 60)
  const sec = Math.round(s % 60)
  return m > 0 ? `${m} min ${sec} s` : `${sec} s`
}

const pct = (x: number) => `${Math.round(x * 100)}%`

/** Ten small bars: the worker's share of each dimension (dark) over the crowd's (light). */
function Profile({ worker, crowd }: { worker: number[]; crowd: number[] }) {
  const max = largest([...worker, ...crowd], 0.01)
  return (
    <span
      className="mini-profile"
      role="img"
      aria-label="Dimension profile against the crowd"
      title={worker.map((w, i) => `${i + 1}: ${pct(w)} (crowd ${pct(crowd[i] ?? 0)})`).join('\n')}
    >
      {worker.map((w, i) => (
        <span key={i} className="mini-bar-pair">
          <span
            className="mini-bar crowd"
            style={{ height: `${((crowd[i] ?? 0) / max) * 100}%` }}
          />
          <span className="mini-bar worker" style={{ height: `${(w / max) * 100}%` }} />
        </span>
      ))}
    </span>
  )
}

/** Why a worker has a flag, by the thresholds in force. */
function flagReason(flag: TriageFlag, w: TriageWorker, settings: TriageSettings): string {
  if (flag === 'new')
    return `First submission fewer than ${settings.newWorkerDays} days before the last day`
  const fast = w.medianWorkSeconds !== null && w.medianWorkSeconds < settings.rushSeconds
  const minimal = w.minimalShare >= settings.rushMinimalShare
  return [
    fast ? `median time under ${settings.rushSeconds} s` : '',
    minimal
      ? `${pct(w.minimalShare)} minimal submissions (at least ${pct(settings.rushMinimalShare)})`
      : '',
    w.medianWorkSeconds === null ? 'no times to judge speed by' : '',
  ]
    .filter(Boolean)
    .join('; ')
}

/** Per worker figures of the range, sortable by any column; a worker's id opens them in review. */
export function WorkerTable({ report }: { report: TriageReport }) {
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({
    key: 'submissions',
    desc: true,
  })
  const rows = [...report.workers].sort((a, b) => {
    const x = value(a, sort.key)
    const y = value(b, sort.key)
    const c =
      typeof x === 'string' || typeof y === 'string' ? String(x).localeCompare(String(y)) : x - y
    return sort.desc ? -c : c
  })
  return (
    <table className="table today-table" data-testid="today-table">
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th
              key={c.key}
              className={c.numeric ? 'num' : undefined}
              title={c.title}
              aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
            >
              <button
                className="link-button"
                data-testid={`sort-${c.key}`}
                onClick={() =>
                  setSort((s) => ({
                    key: c.key,
                    desc: s.key === c.key ? !s.desc : c.numeric === true,
                  }))
                }
              >
                {c.label}
                {sort.key === c.key ? (sort.desc ? ' ↓' : ' ↑') : ''}
              </button>
            </th>
          ))}
          <th title="Share of the worker's annotations per dimension, against the crowd's">
            Profile
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((w) => (
          <tr
            key={w.workerId}
            data-testid="today-row"
            data-worker={w.workerId}
            data-flags={w.flags.join(' ')}
          >
            <td>
              <button className="link-button mono" onClick={() => showWorkerInReview(w.workerId)}>
                {w.workerId}
              </button>
            </td>
            <td className="num">{w.submissions}</td>
            <td className="num">{w.avgDimensions.toFixed(2)}</td>
            <td
              className="num"
              data-testid="today-median"
              title={
                w.medianWorkSeconds === null
                  ? 'No MTurk accept and submit times in the files of these submissions'
                  : undefined
              }
            >
              {formatSeconds(w.medianWorkSeconds)}
            </td>
            <td className="num">{pct(w.minimalShare)}</td>
            <td>
              {w.flags.map((f) => (
                <span
                  key={f}
                  className={`badge ${f === 'rushing' ? 'badge-danger' : 'badge-warn'}`}
                  title={flagReason(f, w, report.settings)}
                >
                  {f}
                </span>
              ))}
            </td>
            <td>
              <Profile worker={w.dimensionProfile} crowd={report.crowdProfile} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
