import type { TriageMark, TriageQueue } from '../../../../shared/contract/triage'
import { formatCount, plural } from '../../lib/format'
import { MARK_LABEL } from './TriageAnnotation'

const MARKS: readonly TriageMark[] = ['good', 'needs-work', 'bad']

interface Tally {
  submissions: number
  reviewed: number
  annotations: number
  marks: Record<TriageMark, number>
}

function tally(): Tally {
  return {
    submissions: 0,
    reviewed: 0,
    annotations: 0,
    marks: { good: 0, 'needs-work': 0, bad: 0 },
  }
}

function add(t: Tally, item: TriageQueue['items'][number]): void {
  t.submissions++
  if (item.reviewedAt !== null) t.reviewed++
  t.annotations += item.annotationIds.length
  for (const m of item.marks) t.marks[m.mark]++
}

const unmarked = (t: Tally) => t.annotations - MARKS.reduce((n, m) => n + t.marks[m], 0)

/** What a queue's marks came to: good / needs work / bad, over the queue and per worker. */
export function TriageSummary({ queue }: { queue: TriageQueue }) {
  const all = tally()
  const byWorker = new Map<string, Tally>()
  for (const item of queue.items) {
    add(all, item)
    const worker = item.workerId ?? '–'
    const t = byWorker.get(worker) ?? tally()
    add(t, item)
    byWorker.set(worker, t)
  }
  return (
    <section className="triage-summary" data-testid="triage-summary">
      <h3>Marks</h3>
      <p data-testid="triage-summary-total">
        {MARKS.map((m) => (
          <span key={m}>
            <span className={`badge mark-${m}`} data-mark={m}>
              {formatCount(all.marks[m])} {MARK_LABEL[m]}
            </span>{' '}
            ·{' '}
          </span>
        ))}
        {formatCount(unmarked(all))} unmarked, of {plural(all.annotations, 'annotation')} in{' '}
        {plural(all.submissions, 'submission')} ({formatCount(all.reviewed)} reviewed).
      </p>
      <table className="table triage-summary-table">
        <thead>
          <tr>
            <th>Worker</th>
            <th className="num">Submissions</th>
            {MARKS.map((m) => (
              <th key={m} className="num">
                {MARK_LABEL[m][0]?.toUpperCase()}
                {MARK_LABEL[m].slice(1)}
              </th>
            ))}
            <th className="num">Unmarked</th>
          </tr>
        </thead>
        <tbody>
          {[...byWorker].map(([worker, t]) => (
            <tr key={worker} data-testid="triage-summary-worker" data-worker={worker}>
              <td className="mono">{worker}</td>
              <td className="num">{formatCount(t.submissions)}</td>
              {MARKS.map((m) => (
                <td key={m} className="num" data-mark={m}>
                  {formatCount(t.marks[m])}
                </td>
              ))}
              <td className="num">{formatCount(unmarked(t))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
