import { useState } from 'react'
import type { GroupValues } from '../../../../shared/crowdaq/conditions'
import type { Collector } from '../../../../shared/crowdaq/spec'
import { type SpanValue, UNSET_SPAN, spanLabel } from '../../../../shared/crowdaq/spans'
import { plural } from '../../../../shared/text'

type SpanCollector = Extract<Collector, { type: 'span-from-text' }>

const isSpan = (v: unknown): v is SpanValue =>
  typeof v === 'object' && v !== null && 'start' in v && 'end' in v && 'surface' in v

/** The spans a value holds, leaving out an unset one. */
export function chosenSpans(value: GroupValues[string]): SpanValue[] {
  const list: unknown[] = Array.isArray(value) ? value : [value]
  return list.filter(isSpan).filter((s) => s.start >= 0)
}

/**
 * A span-from-text collector as a worker fills it: select text in the context it names, then Use
 * selection; a repeated one collects several, up to its max.
 */
export function SpanPicker({
  collector: c,
  contextName,
  value,
  pick,
  onChange,
}: {
  collector: SpanCollector
  contextName: string
  value: GroupValues[string]
  /** The span selected in the collector's context; null when nothing of it is selected. */
  pick: () => SpanValue | null
  onChange: (v: GroupValues[string]) => void
}) {
  const [unselected, setUnselected] = useState(false)
  const spans = chosenSpans(value)
  const full = c.repeated === true && c.max !== undefined && spans.length >= c.max
  const use = (): void => {
    const span = pick()
    setUnselected(span === null)
    if (span) onChange(c.repeated ? [...spans, span] : span)
  }
  return (
    <div className="cq-span">
      <p className="note">Select text in “{contextName}”, then Use selection.</p>
      {spans.length > 0 && (
        <ol className="cq-span-list" data-testid="cq-span-value">
          {spans.map((s, i) => (
            <li key={`${s.start}-${s.end}-${i}`}>
              {spanLabel(s)}
              {c.repeated && (
                <>
                  {' '}
                  <button
                    className="small"
                    onClick={() => onChange(spans.filter((_, k) => k !== i))}
                  >
                    Remove
                  </button>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      <p className="cq-span-actions">
        {/* Pressing a button would otherwise move the selection the worker just made. */}
        <button disabled={full} onMouseDown={(e) => e.preventDefault()} onClick={use}>
          Use selection
        </button>{' '}
        <button
          className="small"
          disabled={spans.length === 0}
          onClick={() => onChange(c.repeated ? [] : UNSET_SPAN)}
        >
          Clear
        </button>
        {c.repeated && (
          <span className="note">
            {' '}
            {plural(spans.length, 'span')}
            {c.min !== undefined ? `, at least ${c.min}` : ''}
            {c.max !== undefined ? `, at most ${c.max}` : ''}
          </span>
        )}
      </p>
      {unselected && (
        <p className="cq-problem" role="status">
          No text of “{contextName}” is selected.
        </p>
      )}
    </div>
  )
}
