/**
 * A worker's rating timeline as a step function of submission time. Pure: the callers load the
 * rating rows in force and write the segments; this module only decides which value holds when.
 */

import type { Change, Segment } from '../db/queries/ratings/segments'

/** Open ends of the time axis (epoch seconds); SQLite stores them as plain integers. */
export const BEGINNING = Number.MIN_SAFE_INTEGER
export const END = Number.MAX_SAFE_INTEGER

export interface TimelineRow {
  id: number
  value: number
  /** Commit date, epoch seconds. */
  effectiveFrom: number
  /** Epoch ms; breaks ties between two ratings with the same commit date. */
  recordedAt: number
}

/** Later commit date first; on the same date the later recorded (then the later row) wins. */
function beats(a: TimelineRow, b: TimelineRow): boolean {
  if (a.recordedAt !== b.recordedAt) return a.recordedAt > b.recordedAt
  return a.id > b.id
}

/** The winning row for each commit date, in date order. */
function winners(rows: readonly TimelineRow[]): TimelineRow[] {
  const byDate = new Map<number, TimelineRow>()
  for (const row of rows) {
    const current = byDate.get(row.effectiveFrom)
    if (!current || beats(row, current)) byDate.set(row.effectiveFrom, row)
  }
  return [...byDate.values()].sort((a, b) => a.effectiveFrom - b.effectiveFrom)
}

/** Covers the whole axis with no gaps; adjacent segments always differ in value. */
export function segments(rows: readonly TimelineRow[]): Segment[] {
  const out: Segment[] = []
  let start = BEGINNING
  let value: number | null = null
  for (const row of winners(rows)) {
    if (row.value === value) continue
    if (row.effectiveFrom > start) out.push({ start, until: row.effectiveFrom, value })
    start = row.effectiveFrom
    value = row.value
  }
  out.push({ start, until: END, value })
  return out
}

/** Whether `a` holds over `b` from `a`'s commit date on: a later date, or the same one and `a` wins. */
function supersedes(a: TimelineRow, b: TimelineRow): boolean {
  return a.effectiveFrom !== b.effectiveFrom ? a.effectiveFrom > b.effectiveFrom : beats(a, b)
}

/** The rating in force at `time`: the greatest commit date not after it, ties by recording. */
export function ratingAt(rows: readonly TimelineRow[], time: number): number | null {
  let best: TimelineRow | undefined
  for (const row of rows) {
    if (row.effectiveFrom > time) continue
    if (!best || supersedes(row, best)) best = row
  }
  return best ? best.value : null
}

/**
 * Each rated worker's rating in force now: the one of the latest commit date (ties as in
 * `ratingAt`), the last step of the worker's timeline. Workers without rows are absent.
 */
export function latestByWorker(
  rows: readonly (TimelineRow & { workerId: number })[],
): Map<number, number> {
  const latest = new Map<number, TimelineRow>()
  for (const row of rows) {
    const known = latest.get(row.workerId)
    if (!known || supersedes(row, known)) latest.set(row.workerId, row)
  }
  return new Map([...latest].map(([worker, row]) => [worker, row.value]))
}

export function valueAt(timeline: readonly Segment[], time: number): number | null {
  for (const segment of timeline) {
    if (time >= segment.start && time < segment.until) return segment.value
  }
  return null
}

/**
 * The pieces of `after` whose value differs from `before`: the only submission times whose
 * worker-based rating changes, so only those rows need rewriting. Each piece has one old and one
 * new value, so the rows it rewrites are also its transition count.
 */
export function changedSegments(before: readonly Segment[], after: readonly Segment[]): Change[] {
  const cuts = [...new Set([...before, ...after].flatMap((s) => [s.start, s.until]))].sort(
    (a, b) => a - b,
  )
  const out: Change[] = []
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i] as number
    const until = cuts[i + 1] as number
    const value = valueAt(after, start)
    const from = valueAt(before, start)
    if (value === from) continue
    const last = out[out.length - 1]
    if (last && last.until === start && last.value === value && last.from === from)
      last.until = until
    else out.push({ start, until, value, from })
  }
  return out
}

/** Each worker's timeline from rows of many workers; workers without rows are unrated throughout. */
export function timelinesByWorker(
  workers: Iterable<number>,
  rows: readonly (TimelineRow & { workerId: number })[],
): Map<number, Segment[]> {
  const grouped = new Map<number, TimelineRow[]>()
  for (const w of workers) grouped.set(w, [])
  for (const row of rows) {
    const list = grouped.get(row.workerId)
    if (list) list.push(row)
    else grouped.set(row.workerId, [row])
  }
  const out = new Map<number, Segment[]>()
  for (const [w, list] of grouped) out.set(w, segments(list))
  return out
}
