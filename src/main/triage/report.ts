import {
  MINIMAL_DIMENSIONS,
  type TriageFlag,
  type TriageReport,
  type TriageSettings,
  type TriageWorker,
} from '../../shared/contract/triage'
import { dayStart, formatDay } from '../../shared/filter'
import type { Db } from '../db/connection'
import {
  type RangeSubmission,
  dayOf,
  lastSubmittedAt,
  lastTriagedDay,
  rangeSubmissions,
  workerFacts,
} from '../db/queries/triage'
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

function addMask(counts: number[], mask: number): void {
  for (let d = 1; d <= 10; d++) if (mask & (1 << d)) counts[d - 1] = (counts[d - 1] ?? 0) + 1
}

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
 * Per worker with submissions in the range (a submission's day is its submission date): new
 * submissions, dimensions per submission, median work time, share of minimal submissions and
 * the dimension profile beside the crowd's, with flags for rushing and new workers.
 */
export function triageReport(db: Db, range: { from?: string; to?: string }): TriageReport {
  const { from, to } = resolveRange(db, range)
  const settings = triageSettings(db)
  const subs = rangeSubmissions(db, dayStart(from), dayStart(to) + DAY)
  const byWorker = new Map<number, RangeSubmission[]>()
  const crowd = Array.from({ length: 10 }, () => 0)
  for (const s of subs) {
    const list = byWorker.get(s.workerId)
    if (list) list.push(s)
    else byWorker.set(s.workerId, [s])
    addMask(crowd, s.mask)
  }
  const facts = workerFacts(db, [...byWorker.keys()])
  const workers: TriageWorker[] = []
  for (const [id, list] of byWorker) {
    const counts = Array.from({ length: 10 }, () => 0)
    let annotations = 0
    let minimal = 0
    const works: number[] = []
    for (const s of list) {
      addMask(counts, s.mask)
      annotations += s.dimensions
      if (s.dimensions <= MINIMAL_DIMENSIONS) minimal++
      if (s.workSeconds !== null) works.push(s.workSeconds)
    }
    const fact = facts.get(id)
    const figures = {
      workerId: fact?.externalId ?? String(id),
      submissions: list.length,
      avgDimensions: annotations / list.length,
      medianWorkSeconds: median(works),
      minimalShare: minimal / list.length,
      dimensionProfile: shares(counts),
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
