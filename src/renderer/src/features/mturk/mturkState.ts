import type { ActionOutcome, MTurkBalance } from '../../../../shared/contract/mturk'
import { onProjectSwitch } from '../../lib/projectScope'
import { createStore } from '../../lib/store'

/** Whether the Mechanical Turk panel is open. */
export const mturkOpen = createStore(false)

export const openMTurk = (): void => mturkOpen.set(true)
export const closeMTurk = (): void => mturkOpen.set(false)
// The panel shows the open project's HITs and actions: another project closes it.
onProjectSwitch(closeMTurk)

/** Bumped after every action, so the worker page re-reads its records. */
export const actionsVersion = createStore(0)
export const actionsChanged = (): void => actionsVersion.set((n) => n + 1)

/** `"10000.00"` → `$10,000.00`. */
export function formatDollars(amount: string | number): string {
  const n = typeof amount === 'number' ? amount : Number(amount)
  if (!Number.isFinite(n)) return String(amount)
  return n.toLocaleString('en-US', { style: 'currency', currency: 'USD' })
}

export function formatBalance(b: MTurkBalance): string {
  const onHold = b.onHold && Number(b.onHold) > 0 ? ` (${formatDollars(b.onHold)} on hold)` : ''
  return `${formatDollars(b.available)} available${onHold}`
}

/** Dollars typed by the user → cents, or null when not a positive amount with ≤ 2 decimals. */
export function parseCents(text: string): number | null {
  const m = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(text)
  if (!m) return null
  const value = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  return value > 0 ? value : null
}

/** One sentence for a toast: what happened, and how many failed. */
export function describeOutcome(o: ActionOutcome, what: string): string {
  const parts = [`${what}: ${o.succeeded} done`]
  if (o.skipped) parts.push(`${o.skipped} already done before (not sent again)`)
  if (o.failed) parts.push(`${o.failed} failed`)
  return `${parts.join(', ')}.`
}

/** `12 min 5 s` */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—'
  const m = Math.floor(seconds / 60)
  const s = Math.round(seconds % 60)
  return m > 0 ? `${m} min ${s} s` : `${s} s`
}
