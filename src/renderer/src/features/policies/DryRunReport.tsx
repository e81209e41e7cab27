import type { PolicyReport } from '../../../../shared/contract/policies'
import { formatCount } from '../../lib/format'
import { RatingBadge } from '../ratings/RatingBadge'
import { showInReview } from '../shell/navigation'

/** The from → to matrix of a whole policy: one row per current rating, one column per new one. */
function Matrix({ report }: { report: PolicyReport }) {
  const rank = (v: number | null) => (v === null ? -Infinity : v)
  const froms = [...new Set(report.transitions.map((t) => t.from))].sort(
    (a, b) => rank(b) - rank(a),
  )
  const tos = [...new Set(report.transitions.map((t) => t.to))].sort((a, b) => b - a)
  if (froms.length === 0) return <p className="note">The policy moves no annotation.</p>
  const cell = (from: number | null, to: number) =>
    report.transitions.find((t) => t.from === from && t.to === to)?.annotations ?? 0
  return (
    <table className="table policy-matrix" data-testid="policy-matrix">
      <thead>
        <tr>
          <th>From ╲ To</th>
          {tos.map((to) => (
            <th key={to} className="num">
              <RatingBadge value={to} />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {froms.map((from) => (
          <tr key={String(from)} data-testid="matrix-row">
            <th>
              <RatingBadge value={from} />
            </th>
            {tos.map((to) => (
              <td key={to} className="num" data-testid={`matrix-${String(from)}-${to}`}>
                {cell(from, to) === 0 ? '' : formatCount(cell(from, to))}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** A dry run: per rule, the whole policy's matrix, and samples that open in the review grid. */
export function DryRunReport({ report }: { report: PolicyReport }) {
  return (
    <div className="policy-report" data-testid="policy-report">
      <p>
        <strong>{formatCount(report.changed)}</strong> annotations would change rating. Nothing has
        changed yet.
      </p>
      <h3>Rules</h3>
      <p className="note">
        Rules apply in order: an annotation is moved by the first rule that selects it.
      </p>
      <table className="table" data-testid="policy-rules">
        <thead>
          <tr>
            <th>#</th>
            <th>Rule</th>
            <th>To</th>
            <th className="num">Selected</th>
            <th className="num">Moved</th>
            <th className="num">Workers</th>
          </tr>
        </thead>
        <tbody>
          {report.rules.map((r, i) => (
            <tr key={i} data-testid="policy-rule">
              <td>{i + 1}</td>
              <td title={r.reason || undefined}>
                {r.name}
                {r.line !== null && <span className="note"> (line {r.line})</span>}
              </td>
              <td>
                <RatingBadge value={r.to} />
              </td>
              <td className="num">{formatCount(r.selected)}</td>
              <td className="num">{formatCount(r.annotations)}</td>
              <td className="num">{formatCount(r.workers)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Transitions</h3>
      <Matrix report={report} />
      <h3>Samples</h3>
      {report.samples.length === 0 ? (
        <p className="note">No annotation moves.</p>
      ) : (
        <ul className="policy-samples">
          {report.samples.map((s) => (
            <li key={s.annotationId}>
              <button
                className="link"
                data-testid="policy-sample"
                title="Open in the review grid and its story view"
                onClick={() => showInReview({ annotationIds: [s.annotationId] })}
              >
                Annotation {s.annotationId}
              </button>{' '}
              <span className="note">
                worker {s.worker ?? '—'}, dimension {s.dimension}, rule {s.rule + 1}:
              </span>{' '}
              <RatingBadge value={s.from} /> → <RatingBadge value={s.to} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
