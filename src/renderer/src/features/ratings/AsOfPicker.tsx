import { useStore } from '../../lib/store'
import { asOf } from './ratingState'

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** Epoch ms → the local `YYYY-MM-DDTHH:MM` a datetime-local input shows. */
function toLocalInput(ms: number): string {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** "As of": a past moment makes ratings and counts show how they stood then; "Now" returns. */
export function AsOfPicker() {
  const value = useStore(asOf)
  return (
    <div
      className={`as-of ${value !== null ? 'is-past' : ''}`}
      title="Show ratings as they stood at a past moment"
    >
      <label>
        <span>As of</span>
        <input
          type="datetime-local"
          aria-label="Show ratings as of"
          data-testid="as-of-input"
          value={value === null ? '' : toLocalInput(value)}
          onChange={(e) => {
            const ms = e.target.value ? new Date(e.target.value).getTime() : NaN
            // A minute picked in the input means "up to the end of that minute".
            asOf.set(Number.isFinite(ms) ? Math.min(ms + 59_999, Date.now()) : null)
          }}
        />
      </label>
      {value !== null && (
        <button className="small" data-testid="as-of-now" onClick={() => asOf.set(null)}>
          Now
        </button>
      )}
    </div>
  )
}
