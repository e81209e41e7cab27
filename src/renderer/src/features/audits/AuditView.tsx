import { useLayoutEffect, useRef, useState } from 'react'
import type { AuditDetail, AuditVerdict } from '../../../../shared/contract/audits'
import { filterChips, isEmptyFilter } from '../../../../shared/filter'
import { dimensionInfo } from '../../../../shared/glucose/dimensions'
import { formatDay } from '../../lib/format'
import { isPrimaryModifier, isTypingTarget } from '../../lib/keys'
import { useLatest } from '../../lib/useLatest'
import { RatingBadge } from '../ratings/RatingBadge'
import { undoKey } from '../ratings/ratingState'
import { showInReview } from '../shell/navigation'
import { describeInterval, describeMargin, nextOpen, percent } from './auditState'

const VERDICT_KEYS: Record<string, AuditVerdict | null> = {
  y: 'yes',
  n: 'no',
  s: 'skip',
  u: null,
}

interface AuditViewProps {
  detail: AuditDetail
  onJudge: (annotationId: number, verdict: AuditVerdict | null) => Promise<AuditDetail | null>
  onDrawMore: (n: number) => void
}

/** One audit: its interval, and its items judged one at a time with y / n / s (u clears). */
export function AuditView({ detail, onJudge, onDrawMore }: AuditViewProps) {
  const { result, items } = detail
  const [index, setIndex] = useState(() => Math.max(0, nextOpen(detail, -1) ?? 0))
  const [more, setMore] = useState('10')
  const current = items[Math.min(index, items.length - 1)]

  // Verdicts sent but not answered yet: a quick run of keys judges one item each, in order.
  const sent = useRef(new Set<number>())
  const judge = async (verdict: AuditVerdict | null) => {
    if (!current) return
    const target = current.annotationId
    if (verdict !== null) {
      sent.current.add(target)
      const open = {
        ...detail,
        items: items.map((i) => (sent.current.has(i.annotationId) ? { ...i, verdict } : i)),
      }
      setIndex(nextOpen(open, index) ?? index)
    }
    const updated = await onJudge(target, verdict)
    sent.current.delete(target)
    // Judging the last open item of an audit with a target may have drawn more: go on to them.
    if (updated && updated.items.length > items.length)
      setIndex((i) => (updated.items[i]?.verdict === null ? i : (nextOpen(updated, i) ?? i)))
  }
  const actions = useLatest({ judge, index, count: items.length })

  // Before the view is painted, so a key pressed as soon as the audit shows is not lost.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target) || undoKey(e) || isPrimaryModifier(e) || e.altKey) return
      // A dialog (rating the worker) has the keys; Enter on a button is that button's.
      if (document.querySelector('.modal-backdrop')) return
      if (e.key === 'Enter' && e.target instanceof HTMLButtonElement) return
      const a = actions.current
      const key = e.key.toLowerCase()
      if (key in VERDICT_KEYS) {
        e.preventDefault()
        void a.judge(VERDICT_KEYS[key] ?? null)
      } else if (e.key === 'ArrowRight' || key === 'j') {
        e.preventDefault()
        setIndex(Math.min(a.count - 1, a.index + 1))
      } else if (e.key === 'ArrowLeft' || key === 'k') {
        e.preventDefault()
        setIndex(Math.max(0, a.index - 1))
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [actions])

  const open = result.sample - result.judged - result.skipped
  const query = isEmptyFilter(result.filter)
    ? 'all annotations'
    : filterChips(result.filter)
        .map((c) => c.label)
        .join(', ')

  return (
    <section className="audit-view" data-testid="audit-view" aria-label={`Audit ${result.name}`}>
      <header className="audit-head">
        <h2>{result.name}</h2>
        <p className="note">
          {query} · seed <span className="mono">{result.seed}</span>
          {result.targetMargin !== null &&
            ` · keeps sampling until ±${(result.targetMargin * 100).toFixed(1)} points`}
        </p>
      </header>
      <div className="audit-figures" data-testid="audit-interval">
        <div className="audit-precision">
          <strong>Precision {describeInterval(result)}</strong> {describeMargin(result)}
        </div>
        <IntervalBar low={result.low} high={result.high} value={result.precision} />
        <div className="note" data-testid="audit-counts">
          {result.yes} yes · {result.no} no · {result.skipped} skipped · {open} open of{' '}
          {result.sample} drawn
        </div>
      </div>
      <div className="audit-strip" role="list" aria-label="Items">
        {items.map((item, i) => (
          <button
            key={item.position}
            role="listitem"
            className={`audit-dot verdict-${item.verdict ?? 'open'}${i === index ? ' current' : ''}`}
            title={`Item ${item.position}: ${item.verdict ?? 'not judged'}`}
            aria-current={i === index}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
      {current && (
        <article
          className="audit-item"
          data-testid="audit-item"
          data-annotation={current.annotationId}
        >
          <div className="audit-item-head">
            <span>
              Item {current.position} of {items.length}
            </span>
            {current.row && (
              <>
                <span>worker {current.row.workerId ?? '–'}</span>
                <span>
                  dimension {current.row.dimension} ({dimensionInfo(current.row.dimension).name})
                </span>
                <span>{formatDay(current.row.submittedAt)}</span>
                <RatingBadge value={current.row.rating} />
              </>
            )}
            <span
              className={`verdict-label verdict-${current.verdict ?? 'open'}`}
              data-testid="audit-verdict"
            >
              {current.verdict ?? 'not judged'}
            </span>
          </div>
          {current.row ? (
            <dl className="audit-texts">
              <dt>Sentence</dt>
              <dd>{current.row.sentence}</dd>
              <dt>Specific</dt>
              <dd>{current.row.specificNL}</dd>
              <dt>General</dt>
              <dd>{current.row.generalNL}</dd>
            </dl>
          ) : (
            <p className="note">This annotation is no longer in the project.</p>
          )}
          <div className="audit-actions">
            <button className="primary" data-testid="judge-yes" onClick={() => void judge('yes')}>
              Yes <kbd>Y</kbd>
            </button>
            <button data-testid="judge-no" onClick={() => void judge('no')}>
              No <kbd>N</kbd>
            </button>
            <button data-testid="judge-skip" onClick={() => void judge('skip')}>
              Skip <kbd>S</kbd>
            </button>
            <button onClick={() => void judge(null)} disabled={current.verdict === null}>
              Clear <kbd>U</kbd>
            </button>
            <span className="note">
              <kbd>←</kbd> <kbd>→</kbd> move
            </span>
          </div>
        </article>
      )}
      <footer className="audit-foot">
        <label className="field-inline">
          Draw
          <input
            type="number"
            min={1}
            max={10000}
            value={more}
            data-testid="audit-more-n"
            onChange={(e) => setMore(e.target.value)}
          />
          more
        </label>
        <button data-testid="audit-more" onClick={() => onDrawMore(Number(more) || 10)}>
          Draw more
        </button>
        <button
          onClick={() => showInReview({ annotationIds: items.map((i) => i.annotationId) })}
          title="Open the sample in the review grid"
        >
          Open in grid
        </button>
        <span className="note">
          About {neededFor(result.precision, result.targetMargin ?? 0.05)} judged items give ±
          {((result.targetMargin ?? 0.05) * 100).toFixed(0)} points at{' '}
          {percent(result.precision ?? 0.5, 0)}.
        </span>
      </footer>
    </section>
  )
}

/** Judged items a 95% interval needs for ±`m` around `p` (normal approximation, for guidance). */
function neededFor(p: number | null, m: number): number {
  const q = p ?? 0.5
  return Math.ceil((1.96 * 1.96 * Math.max(q * (1 - q), 0.01)) / (m * m))
}

function IntervalBar({
  low,
  high,
  value,
}: {
  low: number | null
  high: number | null
  value: number | null
}) {
  if (low === null || high === null || value === null) return <div className="interval-bar empty" />
  return (
    <div
      className="interval-bar"
      role="img"
      aria-label={`95% interval from ${percent(low)} to ${percent(high)}`}
    >
      <div
        className="interval-range"
        style={{ left: `${low * 100}%`, width: `${(high - low) * 100}%` }}
      />
      <div className="interval-point" style={{ left: `${value * 100}%` }} />
    </div>
  )
}
