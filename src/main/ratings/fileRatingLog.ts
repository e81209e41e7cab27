import type { Transition } from '../../shared/contract/ratings'
import type { Db } from '../db/connection'
import { recordEffects } from '../db/queries/changes/history'
import { insertWorkerRating } from '../db/queries/ratings/rows'
import { SOURCE } from '../db/queries/ratings/apply'
import { insertItemRatingValues, setCachedRatings } from '../db/queries/ratings/import'
import { type WrittenRows, annotationId } from '../db/queries/submissions'
import type { ReconstructionResult } from './importTimelines'
import { planWorker } from './importTimelines'
import { append } from '../../shared/lists'

const FIELDS = 5
const NOTE = 'from imported file'

/**
 * Entries per chunk of the log (2.5 MiB). A log that doubled one array held up to twice its
 * entries, and three times while it copied: 252 MB for the 2.13 million rows of ten million
 * annotations, where chunks hold 87 MB (docs/benchmarks.md, "Peak memory of large jobs").
 */
export const LOG_CHUNK = 65_536

/**
 * The file ratings an import wrote, one entry per written row (a submission id, the dimensions the
 * row added, its worker, time and file value), kept in fixed Float64Array chunks. In a project with
 * no annotations and no ratings yet, `reconstructFromLog` turns it into the same worker timelines,
 * item ratings and effects as `reconstructImportedRatings`, without reading the rows back.
 */
export class FileRatingLog implements WrittenRows {
  private readonly chunks: Float64Array[] = []
  private entries = 0

  constructor(private readonly chunkEntries = LOG_CHUNK) {}

  get length(): number {
    return this.entries
  }

  /** The bytes the log holds: its entries rounded up to a whole chunk. */
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
  }

  /** `dimensions`: a bit per dimension written (1 << d); rows that wrote none are not logged. */
  add(
    submissionId: number,
    dimensions: number,
    workerId: number | null,
    submittedAt: number | null,
    value: number | null,
  ): void {
    if (dimensions === 0) return
    const slot = this.entries % this.chunkEntries
    if (slot === 0) this.chunks.push(new Float64Array(FIELDS * this.chunkEntries))
    const d = this.chunks[this.chunks.length - 1] as Float64Array
    const at = slot * FIELDS
    this.entries++
    d[at] = submissionId
    d[at + 1] = dimensions
    d[at + 2] = workerId ?? NaN
    d[at + 3] = submittedAt ?? NaN
    d[at + 4] = value ?? NaN
  }

  entry(i: number): LogEntry {
    const at = (i % this.chunkEntries) * FIELDS
    const d = this.chunks[Math.floor(i / this.chunkEntries)] as Float64Array
    return {
      submissionId: d[at] as number,
      dimensions: d[at + 1] as number,
      workerId: orNull(d[at + 2] as number),
      submittedAt: orNull(d[at + 3] as number),
      value: orNull(d[at + 4] as number),
    }
  }
}

interface LogEntry {
  submissionId: number
  dimensions: number
  workerId: number | null
  submittedAt: number | null
  value: number | null
}

function orNull(n: number): number | null {
  return Number.isNaN(n) ? null : n
}

function annotationIds(e: LogEntry): number[] {
  const ids: number[] = []
  for (let d = 1; d <= 10; d++)
    if (e.dimensions & (1 << d)) ids.push(annotationId(e.submissionId, d))
  return ids
}

/** A worker's timeline as run starts (ascending) and values: the value of the last start ≤ t. */
interface Steps {
  starts: number[]
  values: number[]
}

function valueAt(steps: Steps | undefined, time: number): number | null {
  if (!steps) return null
  let lo = 0
  let hi = steps.starts.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((steps.starts[mid] as number) <= time) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? null : (steps.values[lo - 1] as number)
}

/**
 * The reconstruction of `reconstructImportedRatings` for an import into a project with no
 * annotations and no ratings before it (see `hasNoRatings`), from the log its writer kept. The
 * rows were written with their file value as the effective rating; only the rows whose rating or
 * source ends up different are rewritten. Rows must not be listed in `rating_pending`.
 */
export function reconstructFromLog(
  db: Db,
  changeSet: { id: number; at: number },
  author: string,
  log: FileRatingLog,
): ReconstructionResult {
  const result: ReconstructionResult = { workers: 0, workerRatings: 0, itemRatings: 0, changed: 0 }
  if (log.length === 0) return result
  // Distinct file values per worker and time, as `fileRatingGroups` reads them.
  const valuesAt = new Map<number, Map<number, Set<number>>>()
  for (let i = 0; i < log.length; i++) {
    const e = log.entry(i)
    if (e.workerId === null || e.submittedAt === null || e.value === null) continue
    let times = valuesAt.get(e.workerId)
    if (!times) {
      times = new Map<number, Set<number>>()
      valuesAt.set(e.workerId, times)
    }
    const values = times.get(e.submittedAt)
    if (values) values.add(e.value)
    else times.set(e.submittedAt, new Set([e.value]))
  }
  const workers = [...valuesAt.keys()].sort((a, b) => a - b)
  const steps = new Map<number, Steps>()
  const conflicts = new Map<number, Set<number>>()
  for (const workerId of workers) {
    const times = valuesAt.get(workerId) as Map<number, Set<number>>
    const groups = [...times.keys()]
      .sort((a, b) => a - b)
      .flatMap((submittedAt) =>
        [...(times.get(submittedAt) as Set<number>)]
          .sort((a, b) => a - b)
          .map((value) => ({ workerId, submittedAt, value })),
      )
    const plan = planWorker(groups)
    for (const run of plan.runs) {
      insertWorkerRating(db, {
        workerId,
        value: run.value,
        effectiveFrom: run.start,
        recordedAt: changeSet.at,
        author,
        note: NOTE,
        changeSetId: changeSet.id,
      })
    }
    result.workerRatings += plan.runs.length
    steps.set(workerId, {
      starts: plan.runs.map((r) => r.start),
      values: plan.runs.map((r) => r.value),
    })
    if (plan.conflicts.length > 0) conflicts.set(workerId, new Set(plan.conflicts))
  }

  // Item ratings where one worker gave two values at one time (by worker, time, annotation), then
  // where a value has no worker or no time to sit on (by annotation); every other rated row is
  // already right, and an unrated row takes its worker's timeline.
  const pinnedByWorker = new Map<number, Map<number, { annotationId: number; value: number }[]>>()
  const unplaceable: { annotationId: number; value: number }[] = []
  const updates: [number, number | null, number][] = []
  const counts = new Map<number, number>()
  for (let i = 0; i < log.length; i++) {
    const e = log.entry(i)
    let rating: number | null
    let source: number
    const conflict =
      e.value !== null &&
      e.workerId !== null &&
      e.submittedAt !== null &&
      conflicts.get(e.workerId)?.has(e.submittedAt) === true
    if (e.value !== null && (conflict || e.workerId === null || e.submittedAt === null)) {
      const value = e.value
      const pins = annotationIds(e).map((id) => ({ annotationId: id, value }))
      if (conflict) {
        const w = e.workerId as number
        const t = e.submittedAt as number
        let times = pinnedByWorker.get(w)
        if (!times) {
          times = new Map<number, { annotationId: number; value: number }[]>()
          pinnedByWorker.set(w, times)
        }
        const list = times.get(t)
        if (list) append(list, pins)
        else times.set(t, pins)
      } else append(unplaceable, pins)
      rating = value
      source = SOURCE.item
    } else {
      rating =
        e.workerId === null || e.submittedAt === null
          ? null
          : valueAt(steps.get(e.workerId), e.submittedAt)
      source = rating === null ? SOURCE.unrated : SOURCE.worker
    }
    const ids = annotationIds(e)
    const written = e.value === null ? SOURCE.unrated : SOURCE.worker
    if (rating !== e.value || source !== written) {
      for (const id of ids) updates.push([id, rating, source])
    }
    if (rating !== null) counts.set(rating, (counts.get(rating) ?? 0) + ids.length)
  }
  const byId = (a: { annotationId: number }, b: { annotationId: number }) =>
    a.annotationId - b.annotationId
  const pinned: { annotationId: number; value: number }[] = []
  for (const w of [...pinnedByWorker.keys()].sort((a, b) => a - b)) {
    const times = pinnedByWorker.get(w) as Map<number, { annotationId: number; value: number }[]>
    for (const t of [...times.keys()].sort((a, b) => a - b)) {
      append(pinned, (times.get(t) as { annotationId: number; value: number }[]).sort(byId))
    }
  }
  append(pinned, unplaceable.sort(byId))
  const by = { changeSetId: changeSet.id, at: changeSet.at, author, note: NOTE }
  result.itemRatings = insertItemRatingValues(db, pinned, by)
  setCachedRatings(db, updates)

  // Every new annotation counted as unrated before: the effects are its final ratings.
  const transitions: Transition[] = [...counts]
    .map(([to, count]) => ({ from: null, to, count }))
    .sort((a, b) => b.count - a.count || (b.to ?? 0) - (a.to ?? 0))
  result.changed = transitions.reduce((n, t) => n + t.count, 0)
  recordEffects(db, changeSet.id, result.changed, transitions)
  result.workers = workers.length
  return result
}
