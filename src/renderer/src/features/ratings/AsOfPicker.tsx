import { useId, useState } from 'react'
import { formatInstant } from '../../lib/format'
import { useStore } from '../../lib/store'
import { AS_OF_MEANING, viewAsOf } from './asOfView'
import { asOf } from './ratingState'

const MOMENT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/

/**
 * `YYYY-MM-DD hh:mm:ss` (local; minutes, seconds or the time may be left out) → the last
 * millisecond it names, so a moment picked includes everything recorded in it. Null if no moment.
 */
function parseMoment(text: string): number | null {
  const m = MOMENT.exec(text.trim())
  if (!m) return null
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)))
  const start = new Date(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0)
  if (start.getMonth() !== (mo ?? 1) - 1 || start.getDate() !== d) return null
  const span = s !== undefined ? 1000 : mi !== undefined ? 60_000 : 86_400_000
  return start.getTime() + span - 1
}

/** "As recorded by": a past moment makes ratings and counts show how they were recorded then. */
export function AsOfPicker() {
  const value = useStore(asOf)
  const meaning = useId()
  const shown = value === null ? '' : formatInstant(value)
  const [text, setText] = useState(shown)
  const [seen, setSeen] = useState(shown)
  const [bad, setBad] = useState(false)
  // The moment this field set last: while typing goes on, its own moment does not rewrite it.
  const [applied, setApplied] = useState<number | null>(null)
  if (shown !== seen) {
    setSeen(shown)
    if (value !== applied) {
      setText(shown)
      setBad(false)
    }
  }
  const apply = (moment: number | null) => {
    setApplied(moment)
    viewAsOf(moment)
  }
  return (
    <div className={`as-of ${value !== null ? 'is-past' : ''}`} title={AS_OF_MEANING}>
      <label>
        <span>As recorded by</span>
        <input
          type="text"
          className="as-of-input"
          placeholder="YYYY-MM-DD hh:mm:ss"
          spellCheck={false}
          maxLength={19}
          aria-label="Show ratings as recorded by"
          aria-describedby={meaning}
          aria-invalid={bad}
          data-testid="as-of-input"
          value={text}
          onChange={(e) => {
            const t = e.target.value
            setText(t)
            if (t.trim() === '') {
              setBad(false)
              apply(null)
              return
            }
            const ms = parseMoment(t)
            // Half-typed moments wait; a whole one that is no moment is marked.
            setBad(ms === null && t.trim().length >= 19)
            if (ms !== null && t.trim().length >= 10) apply(Math.min(ms, Date.now()))
          }}
        />
      </label>
      <span id={meaning} hidden>
        {AS_OF_MEANING}
      </span>
      {value !== null && (
        <button className="small" data-testid="as-of-now" onClick={() => viewAsOf(null)}>
          Now
        </button>
      )}
    </div>
  )
}
