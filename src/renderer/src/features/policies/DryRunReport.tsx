import type { PolicyReport } from '../../../../shared/contract/policies'
import { formatCount } from '../../lib/format'
import { RatingBadge } from '../ratings/RatingBadge'
import { showChangeSet, showInReview } from '../shell/navigation'

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

/** The change set of an applied policy, as a link that opens it in History. */
function ChangeSetLink({ id, testId }: { id: number; testId: string }) {
  return (
    <button
      className="link"
      data-testid={testId}
      title="Show it in History"
      onClick={() => showChangeSet(id)}
    >
      change set #{id}
    </button>
  )
}

/** What the report says it is: a dry run that changed nothing, or the policy as applied. */
function Outcome({
  report,
  applied,
}: {
  report: PolicyReport
  applied: { changeSet: number | null; revertedBy: number | null } | undefined
}) {
  if (!applied) {
    return (
      <p>
        <strong>{formatCount(report.changed)}</strong> annotations would change rating. Nothing has
        changed yet.
      </p>
    )
  }
  if (applied.changeSet === null) {
    return (
      <p data-testid="policy-applied">
        <span className="badge policy-applied-badge">Applied</span> The policy moved nothing; no
        change set was written.
      </p>
    )
  }
  return (
    <p data-testid="policy-applied">
      <span className="badge policy-applied-badge">Applied</span>{' '}
      <strong>{formatCount(report.changed)}</strong> annotations changed rating in{' '}
      <ChangeSetLink id={applied.changeSet} testId="policy-change-set" />.
      {applied.revertedBy !== null && (
        <>
          {' '}
          Reverted by <ChangeSetLink id={applied.revertedBy} testId="policy-revert-set" />.
        </>
      )}
    </p>
  )
}

/**
 * A dry run: per rule, the whole policy's matrix, and samples that open in the review grid. Once
 * applied, the same report marked so, with its change set; `stale` when the script or its
 * parameters changed since.
 */
export function DryRunReport({
  report,
  applied,
  stale = false,
}: {
  report: PolicyReport
  applied?: { changeSet: number | null; revertedBy: number | null }
  stale?: boolean
}) {
  return (
    <div
      className={`policy-report${stale ? ' is-stale' : ''}`}
      data-testid="policy-report"
      data-state={applied ? 'applied' : stale ? 'stale' : 'dry-run'}
    >
      <Outcome report={report} applied={applied} />
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
            <li key={s.annotationId} className="policy-sample" data-testid="policy-sample-item">
              <div className="policy-sample-head">
                <span className="policy-sample-move" data-testid="policy-sample-move">
                  <RatingBadge value={s.from} /> → <RatingBadge value={s.to} />
                </span>
                <span className="note">
                  rule {s.rule + 1} · worker {s.worker ?? '—'} · dimension {s.dimension}
                </span>
                <button
                  className="link policy-sample-open"
                  data-testid="policy-sample"
                  title={`Open annotation ${s.annotationId} in the review grid`}
                  onClick={() => showInReview({ annotationIds: [s.annotationId] })}
                >
                  Open in grid
                </button>
              </div>
              <div className="policy-sample-sentence">{s.sentence}</div>
              <div className="policy-sample-statement" data-testid="policy-sample-specific">
                {s.specific}
              </div>
              <div className="policy-sample-statement note">{s.general}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
