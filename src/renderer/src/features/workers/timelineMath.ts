import { largest, smallest } from '../../../../shared/lists'

/** Pure geometry of the worker rating timeline chart (tested in tests/renderer). */

export interface Step {
  from: string | null
  until: string | null
  value: number | null
}

export interface VolumeDay {
  day: string
  submissions: number
  annotations: number
  byRating: Record<string, number>
}

const DAY_MS = 86_400_000

/** `YYYY-MM-DD` → UTC day number (days since 1970-01-01). */
export function dayNumber(day: string): number {
  const [y, m, d] = day.split('-').map(Number)
  return Math.floor(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / DAY_MS)
}

export function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10)
}

/** The days the chart spans: every volume day and every commit date, padded by one day. */
export function timelineDomain(
  steps: readonly Step[],
  volume: readonly VolumeDay[],
): [number, number] | null {
  const days: number[] = []
  for (const v of volume) days.push(dayNumber(v.day))
  for (const s of steps) {
    if (s.from) days.push(dayNumber(s.from))
    if (s.until) days.push(dayNumber(s.until))
  }
  if (days.length === 0) return null
  return [smallest(days) - 1, largest(days) + 1]
}

/** Steps clipped to the domain, as [startDay, endDay, value] with open ends at the domain's edges. */
export function stepSpans(
  steps: readonly Step[],
  domain: [number, number],
): [number, number, number | null][] {
  return steps
    .map((s): [number, number, number | null] => [
      s.from ? Math.max(dayNumber(s.from), domain[0]) : domain[0],
      s.until ? Math.min(dayNumber(s.until), domain[1]) : domain[1],
      s.value,
    ])
    .filter(([a, b]) => b > a)
}

/** Linear map from [d0, d1] to [r0, r1]. */
export function scaleLinear(d0: number, d1: number, r0: number, r1: number): (x: number) => number {
  const span = d1 - d0 || 1
  return (x) => r0 + ((x - d0) / span) * (r1 - r0)
}
