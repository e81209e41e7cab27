/** Display formatting shared by the page. Pure: tested in tests/renderer. */

export { formatBytes, formatCount, plural } from '../../../shared/text'

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 })

/** `12,400 rows/s`; small rates keep one decimal. */
export function formatRate(perSecond: number, unit: string): string {
  const n = perSecond >= 100 ? integer.format(perSecond) : oneDecimal.format(perSecond)
  return `${n} ${unit}/s`
}

export function formatMegabytesPerSecond(bytesPerSecond: number): string {
  return `${oneDecimal.format(bytesPerSecond / (1024 * 1024))} MB/s`
}

/** A job's running time: `0.04 s`, `0.4 s`, `12 s`, `3 min 05 s` (never a bare `0 s`). */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000
  if (seconds < 0.095) return `${seconds.toFixed(2)} s`
  if (seconds < 10) return `${oneDecimal.format(seconds)} s`
  if (seconds < 60) return `${Math.round(seconds)} s`
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)} min ${pad(whole % 60)} s`
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** Epoch seconds (UTC, as the database keeps domain times) → `YYYY-MM-DD`. */
export function formatDay(epochSeconds: number | null | undefined): string {
  if (epochSeconds === null || epochSeconds === undefined || !Number.isFinite(epochSeconds))
    return ''
  const d = new Date(epochSeconds * 1000)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}

/** Epoch milliseconds (bookkeeping times) → local `YYYY-MM-DD hh:mm`. */
export function formatMoment(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return ''
  const d = new Date(epochMs)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** Epoch milliseconds → local `YYYY-MM-DD hh:mm:ss`, where the second matters (as of, history). */
export function formatInstant(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return ''
  return `${formatMoment(epochMs)}:${pad(new Date(epochMs).getSeconds())}`
}

/** Today's local date as `YYYY-MM-DD` (the default commit date). */
export function todayIso(now = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** Percent of a job done, or null when its total is unknown. */
export function percentDone(done: number, total: number | null): number | null {
  if (total === null || total <= 0) return null
  return Math.max(0, Math.min(100, (done / total) * 100))
}
