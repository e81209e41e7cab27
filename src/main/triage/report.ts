import {
  MINIMAL_DIMENSIONS,
  type TriageFlag,
  type TriageReport,
  type TriageSettings,
  type TriageWorker,
} from '../../shared/contract/triage'
import { dayStart, formatDay } from '../../shared/filter'
import type { Db } from '../db/connection'
import { rangeWorkers, rangeWork } from '../db/queries/submissionCounts'
import { dayOf, lastSubmittedAt, lastTriagedDay, workerFacts } from '../db/queries/triage'
import { triageSettings } from './settings'

const DAY = 86_400

function nextDay(day: string): string {
  return formatDay(dayStart(day) + DAY)
}

/**
 * The default range of the Today page: the days since the last triage up to the last day with
 * submissions, or that last day alone before any triage (or when nothing came in since).
 */
export function defaultRange(db: Db): { from: string; to: string } {
  const last = dayOf(lastSubmittedAt(db)) ?? formatDay(Math.floor(Date.now() / 1000))
  const triaged = lastTriagedDay(db)
  if (triaged === null || triaged >= last) return { from: last, to: last }
  return { from: nextDay(triaged), to: last }
}

function resolveRange(db: Db, range: { from?: string; to?: string }) {
  if (range.from && range.to) return { from: range.from, to: range.to }
  const fallback = defaultRange(db)
  const from = range.from ?? (range.to && range.to < fallback.from ? range.to : fallback.from)
  const to = range.to ?? (fallback.to < from ? from : fallback.to)
  return { from, to }
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

function shares(counts: number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0)
  return counts.map((n) => (total === 0 ? 0 : n / total))
}

const zeros = (): number[] => Array.from({ length: 10 }, () => 0)

function flagsOf(
  w: Pick<TriageWorker, 'medianWorkSeconds' | 'minimalShare' | 'firstSubmittedAt'>,
  to: string,
  settings: TriageSettings,
): TriageFlag[] {
  const flags: TriageFlag[] = []
  const rushed = w.medianWorkSeconds !== null && w.medianWorkSeconds < settings.rushSeconds
  if (rushed || w.minimalShare >= settings.rushMinimalShare) flags.push('rushing')
  const end = dayStart(to) + DAY
  if (w.firstSubmittedAt !== null && w.firstSubmittedAt >= end - settings.newWorkerDays * DAY)
    flags.push('new')
  return flags
}

/**
 * The median of values given as (value, count) in ascending order of value, without expanding
 * them (a worker's work times over a range come summed from the summary).
 */
export function medianOfCounts(sorted: readonly { value: number; n: number }[]): number | null {
  const total = sorted.reduce((sum, v) => sum + v.n, 0)
  if (total === 0) return null
  // The values at positions (total - 1) >> 1 and total >> 1 (0-based): one value when total is odd.
  const at = (position: number): number => {
    let seen = 0
    for (const v of sorted) {
      seen += v.n
      if (position < seen) return v.value
    }
    throw new Error('position beyond the counts')
  }
  return (at((total - 1) >> 1) + at(total >> 1)) / 2
}

interface WorkerFigures {
  submissions: number
  annotations: number
  minimal: number
  counts: number[]
  works: { value: number; n: number }[]
}

/**
 * Per worker with submissions in the range (a submission's day is its submission date): new
 * submissions, dimensions per submission, median work time, share of minimal submissions and
 * the dimension profile beside the crowd's, with flags for rushing and new workers. Read from
 * the summaries of submissions (migration 018), not from the range's annotations.
 */
export function triageReport(db: Db, range: { from?: string; to?: string }): TriageReport {
  const { from, to } = resolveRange(db, range)
  const settings = triageSettings(db)
  const start = dayStart(from)
  const until = dayStart(to) + DAY
  const byWorker = new Map<number, WorkerFigures>()
  const crowd = zeros()
  for (const w of rangeWorkers(db, start, until, MINIMAL_DIMENSIONS)) {
    byWorker.set(w.workerId, { ...w, works: [] })
    w.counts.forEach((n, i) => (crowd[i] = (crowd[i] ?? 0) + n))
  }
  // In ascending order of seconds per worker, as the median reads them.
  for (const w of rangeWork(db, start, until))
    byWorker.get(w.workerId)?.works.push({ value: w.seconds, n: w.n })
  const facts = workerFacts(db, [...byWorker.keys()])
  const workers: TriageWorker[] = []
  for (const [id, f] of byWorker) {
    const fact = facts.get(id)
    const figures = {
      workerId: fact?.externalId ?? String(id),
      submissions: f.submissions,
      avgDimensions: f.annotations / f.submissions,
      medianWorkSeconds: medianOfCounts(f.works),
      minimalShare: f.minimal / f.submissions,
      dimensionProfile: shares(f.counts),
      firstSubmittedAt: fact?.first ?? null,
    }
    workers.push({ ...figures, flags: flagsOf(figures, to, settings) })
  }
  workers.sort((a, b) => b.submissions - a.submissions || a.workerId.localeCompare(b.workerId))
  return {
    from,
    to,
    crowdProfile: shares(crowd),
    workers,
    lastTriagedDay: lastTriagedDay(db),
    lastDay: dayOf(lastSubmittedAt(db)),
    settings,
  }
}
