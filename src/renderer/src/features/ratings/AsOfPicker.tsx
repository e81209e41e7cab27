import { useId } from 'react'
import { useStore } from '../../lib/store'
import { AS_OF_MEANING, viewAsOf } from './asOfView'
import { asOf } from './ratingState'

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** Epoch ms → the local `YYYY-MM-DDTHH:MM:SS` a datetime-local input with seconds shows. */
function toLocalInput(ms: number): string {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** "As recorded by": a past moment makes ratings and counts show how they were recorded then. */
export function AsOfPicker() {
  const value = useStore(asOf)
  const meaning = useId()
  return (
    <div className={`as-of ${value !== null ? 'is-past' : ''}`} title={AS_OF_MEANING}>
      <label>
        <span>As recorded by</span>
        <input
          type="datetime-local"
          step={1}
          aria-label="Show ratings as recorded by"
          aria-describedby={meaning}
          data-testid="as-of-input"
          value={value === null ? '' : toLocalInput(value)}
          onChange={(e) => {
            const ms = e.target.value ? new Date(e.target.value).getTime() : NaN
            // A second picked in the input means "up to the end of that second".
            viewAsOf(Number.isFinite(ms) ? Math.min(ms - (ms % 1000) + 999, Date.now()) : null)
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
