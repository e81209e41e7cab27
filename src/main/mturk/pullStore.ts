/**
 * Stores a pull a group of pages at a time. Each page is parsed as soon as it arrives (while the
 * next requests are in flight) and queued; the queue is committed in one transaction when enough
 * assignments or enough time have gathered, together with the checkpoints of the pages in it, so
 * a kill loses at most the queued pages and a resumed pull fetches them again. New assignments go
 * through SubmissionWriter (raw answer verbatim, status, times) and the ratings reconstruction, as
 * an import does, once per commit, so effective ratings are consistent at every commit; known ones
 * only get their status updated. Full-text indexing is left to the chunked indexer after the pull.
 */
import type { Assignment } from '@aws-sdk/client-mturk'
import type { AssignmentStatus } from '../../shared/contract/mturk'
import type { Db } from '../db/connection'
import { createChangeSet, describeChangeSet } from '../db/queries/changes/sets'
import { recordEffects } from '../db/queries/changes/history'
import {
  type AssignmentLink,
  knownAssignments,
  linkAssignments,
  setAssignmentStatus,
} from '../db/queries/mturk/assignments'
import { markHitGone, markHitPulled } from '../db/queries/mturk/hits'
import {
  addEffects,
  addPullCounts,
  effectsOf,
  latestChangeSetId,
  saveCheckpoint,
} from '../db/queries/mturk/pulls'
import { pendingCount } from '../db/queries/ratings/import'
import { type CellConflict, SubmissionWriter } from '../db/queries/submissions'
import { UserError } from '../../shared/contract/errors'
import { showValue } from '../importers/errors'
import type { StoredSubmission } from '../importers/types'
import { reconstructImportedRatings } from '../ratings/importTimelines'
import { addAttempt } from '../collections/crowdaq/db/attempts'
import { findOrAddWorker } from '../db/queries/workers/ids'
import { type ExamPullTarget, type PulledAttempt, toExamAttempt } from './exam-map'
import { type FieldMap, epochSeconds, mapAssignment } from './glucose-map'
import type { PullBatch } from './pull'
import { hitSignature } from './pullPlan'
import { plural } from '../../shared/text'

export interface CommitResult {
  /** Assignments on the committed pages. */
  assignments: number
  /** Submissions added. */
  added: number
  annotations: number
  /** Known assignments whose status changed. */
  updated: number
  /** Pages committed. */
  pages: number
}

/** Where a pull's time went, in ms (the benchmark reads these). */
export interface PullTiming {
  parseMs: number
  storeMs: number
}

export interface PullStoreOptions {
  author: string
  /** Epoch ms. */
  now: () => number
  map?: FieldMap
  /**
   * The HITs are an exam's qualification HITs: their assignments become the exam's attempts
   * (no submissions; `map` is not used).
   */
  exam?: ExamPullTarget
  timing?: PullTiming
  /** Commit once this many assignments are queued (default 2,000)… */
  commitAssignments?: number
  /** …or once the oldest queued page has waited this long, in ms (default 250). */
  commitAfterMs?: number
}

const STATUSES: ReadonlySet<string> = new Set<AssignmentStatus>([
  'Submitted',
  'Approved',
  'Rejected',
])

/** A page as the store needs it (a PullBatch is one). */
export type StorePage = Pick<PullBatch, 'hit' | 'assignments' | 'nextToken' | 'gone'>

/** A page parsed and waiting for its commit. */
interface QueuedPage {
  batch: StorePage
  fresh: Assignment[]
  mapped: StoredSubmission[]
  /** An exam pull's attempts (its pages have no submissions). */
  attempts: PulledAttempt[]
  /** Known assignments whose status differs from the project's. */
  changes: { assignmentId: string; status: AssignmentStatus; reviewedAt: number | null }[]
  present: number
}

export class PullStore {
  /** The change set this pull writes into, while no other change set has come after it. */
  private changeSet: { id: number; at: number } | null = null
  /**
   * One writer per change set: its statements and id counter stay valid as long as nothing else
   * wrote, and every other writer of submissions opens a change set first.
   */
  private writer: SubmissionWriter | null = null
  private readonly written = { submissions: 0, annotations: 0, attempts: 0 }
  private queue: QueuedPage[] = []
  /** Assignment ids on queued pages: a page seen twice (a HIT started over) adds nothing twice. */
  private readonly queuedIds = new Set<string>()
  private queuedAssignments = 0
  private oldestQueuedAt = 0

  constructor(
    private readonly db: Db,
    private readonly pullId: number,
    private readonly options: PullStoreOptions,
  ) {}

  /** Assignments on the page; the page waits in the queue until `commit`. */
  take(batch: StorePage): number {
    const { db, options } = this
    const parseStart = performance.now()
    const present = presentAssignments(batch)
    if (options.exam) {
      const exam = options.exam
      // Attempts are not linked as assignments: their source keys keep a second pull from
      // adding them again.
      const attempts = present
        .filter((a) => !this.queuedIds.has(a.AssignmentId ?? ''))
        .map((a) => toExamAttempt(batch.hit, a, exam))
      for (const a of present) this.queuedIds.add(a.AssignmentId ?? '')
      this.enqueue({ batch, fresh: [], mapped: [], attempts, changes: [], present: present.length })
      if (options.timing) options.timing.parseMs += performance.now() - parseStart
      return present.length
    }
    const known = knownAssignments(
      db,
      present.map((a) => a.AssignmentId ?? ''),
    )
    const fresh: Assignment[] = []
    const mapped: StoredSubmission[] = []
    const changes: QueuedPage['changes'] = []
    for (const a of present) {
      const id = a.AssignmentId ?? ''
      const before = known.get(id)
      if (before === undefined) {
        if (!this.queuedIds.has(id)) {
          fresh.push(a)
          mapped.push(mapAssignment(batch.hit, a, options.map ? { map: options.map } : {}))
        }
        this.queuedIds.add(id)
        continue
      }
      const status = statusOf(a)
      if (status === null || before === status) continue
      changes.push({
        assignmentId: id,
        status,
        reviewedAt: epochSeconds(a.ApprovalTime ?? a.RejectionTime),
      })
    }
    this.enqueue({ batch, fresh, mapped, attempts: [], changes, present: present.length })
    if (options.timing) options.timing.parseMs += performance.now() - parseStart
    return present.length
  }

  private enqueue(page: QueuedPage): void {
    if (this.queue.length === 0) this.oldestQueuedAt = performance.now()
    this.queue.push(page)
    this.queuedAssignments += page.present
  }

  /** True when the queue should be committed now. */
  due(): boolean {
    if (this.queue.length === 0) return false
    return (
      this.queuedAssignments >= (this.options.commitAssignments ?? 2_000) ||
      performance.now() - this.oldestQueuedAt >= (this.options.commitAfterMs ?? 250)
    )
  }

  /** Stores every queued page and its checkpoint in one transaction; the queue is empty after. */
  commit(): CommitResult {
    const pages = this.queue
    this.queue = []
    this.queuedIds.clear()
    this.queuedAssignments = 0
    if (pages.length === 0)
      return { assignments: 0, added: 0, annotations: 0, updated: 0, pages: 0 }
    const storeStart = performance.now()
    let result: CommitResult
    try {
      result = this.db.transaction(() => this.store(pages)).immediate()
    } catch (error) {
      // Rolled back: a change set or writer state made in it no longer matches the file.
      this.changeSet = null
      this.writer = null
      throw error
    }
    if (this.options.timing) this.options.timing.storeMs += performance.now() - storeStart
    return result
  }

  private store(pages: readonly QueuedPage[]): CommitResult {
    const { db, options } = this
    const at = options.now()
    const result: CommitResult = {
      assignments: 0,
      added: 0,
      annotations: 0,
      updated: 0,
      pages: pages.length,
    }
    const mapped = pages.flatMap((p) => p.mapped)
    let changeSetId: number | null = null
    if (mapped.length > 0) {
      const changeSet = this.changeSetFor()
      changeSetId = changeSet.id
      const writer = (this.writer ??= new SubmissionWriter(db, changeSet.id, null))
      const before = { ...writer.counts }
      for (const submission of mapped) writer.write(submission)
      writer.finish()
      if (writer.conflictCount > 0) throw pullConflict(writer.conflicts, writer.conflictCount)
      linkAssignments(
        db,
        pages.flatMap((p) =>
          p.fresh.map((a, i) => link(p.batch.hit.HITId ?? '', a, p.mapped[i]?.sourceKey ?? '')),
        ),
        at,
        changeSet.id,
      )
      result.added = writer.counts.submissions - before.submissions
      result.annotations = writer.counts.annotations - before.annotations
      this.written.submissions += result.added
      this.written.annotations += result.annotations
      this.reconstructRatings(changeSet)
      describeChangeSet(
        db,
        changeSet.id,
        `Pulled from MTurk: ${plural(this.written.submissions, 'submission')}, ${plural(this.written.annotations, 'annotation')}`,
      )
    }
    const attempts = pages.flatMap((p) => p.attempts)
    if (attempts.length > 0) {
      changeSetId = this.storeAttempts(attempts, result)
    }
    // Statuses changed on MTurk are written in the pull's change set, so they travel with it.
    const statusSet = pages.some((p) => p.changes.length > 0) ? this.changeSetFor().id : null
    if (statusSet !== null) changeSetId = statusSet
    for (const page of pages) {
      for (const change of page.changes) {
        if (
          statusSet !== null &&
          setAssignmentStatus(db, { ...change, at, changeSetId: statusSet })
        )
          result.updated++
      }
      const { hit, nextToken, gone } = page.batch
      const hitId = hit.HITId ?? ''
      const done = nextToken === undefined
      // Pages of one HIT are queued in order: the last one's checkpoint is the one that stays.
      saveCheckpoint(db, this.pullId, hitId, { nextToken: nextToken ?? null, done })
      if (gone) markHitGone(db, hitId, at)
      else if (done) markHitPulled(db, hitId, hitSignature(hit), at)
      result.assignments += page.present
    }
    addPullCounts(db, this.pullId, {
      assignments: result.assignments,
      added: result.added,
      updated: result.updated,
      changeSetId,
    })
    return result
  }

  /** Stores an exam pull's attempts; returns their change set. */
  private storeAttempts(attempts: readonly PulledAttempt[], result: CommitResult): number {
    const { db, options } = this
    const exam = options.exam
    if (!exam) throw new Error('attempts belong to an exam pull')
    const changeSet = this.changeSetFor()
    for (const a of attempts) {
      const added = addAttempt(
        db,
        {
          examId: exam.examId,
          workerId: findOrAddWorker(db, a.workerExternalId),
          platform: 'mturk',
          source: 'mturk',
          sourceKey: a.sourceKey,
          completedAt: a.completedAt,
          startedAt: a.startedAt,
          deadline: a.deadline,
          sourceOrder: 0,
          answers: a.answers,
        },
        changeSet.id,
      )
      if (added) result.added++
    }
    this.written.attempts += result.added
    describeChangeSet(
      db,
      changeSet.id,
      `Pulled exam ${exam.examId} from MTurk: ${plural(this.written.attempts, 'attempt')}`,
    )
    return changeSet.id
  }

  /**
   * One change set per pull, as long as nothing else was recorded since: a rating made in the
   * middle of a long pull must stay after the pages stored before it and before those after it.
   */
  private changeSetFor(): { id: number; at: number } {
    if (this.changeSet && latestChangeSetId(this.db) === this.changeSet.id) return this.changeSet
    this.writer = null
    this.changeSet = createChangeSet(this.db, {
      kind: 'mturk',
      author: this.options.author,
      description: 'Pulled from MTurk',
    })
    this.written.submissions = 0
    this.written.annotations = 0
    this.written.attempts = 0
    return this.changeSet
  }

  /**
   * The reconstruction records the effects of its own run on the change set; a pull's change set
   * spans many pages, so each page's effects are added to those recorded before.
   */
  private reconstructRatings(changeSet: { id: number; at: number }): void {
    if (pendingCount(this.db) === 0) return
    const before = effectsOf(this.db, changeSet.id)
    reconstructImportedRatings(this.db, changeSet, this.options.author)
    const total = addEffects(before, effectsOf(this.db, changeSet.id))
    recordEffects(this.db, changeSet.id, total.changed, total.transitions)
  }
}

/**
 * Pulled answers that say something else than the same work imported before: the pull stops
 * before storing the page, naming the assignment and the cells.
 */
function pullConflict(conflicts: readonly CellConflict[], count: number): UserError {
  const list = conflicts.map(
    (c) =>
      `${c.sourceKey.slice(2)} ${c.dimension}_${c.cell}: ` +
      (c.here === null ? 'escaped' : showValue(c.here)) +
      ` here, ${showValue(c.there ?? '')} in ${c.origin}`,
  )
  return new UserError({
    type: 'conflict',
    code: 'conflicting-cells',
    message:
      `Pulled assignments differ from the same work already in the project: ${list.join('; ')}` +
      (count > conflicts.length ? `; and ${count - conflicts.length} more` : '') +
      '. Their page was not stored; what was pulled before it is kept.',
  })
}

/** A page's assignments that can be stored (an id and a worker). */
export function presentAssignments(page: Pick<StorePage, 'assignments'>): Assignment[] {
  return page.assignments.filter((a) => a.AssignmentId && a.WorkerId)
}

function statusOf(a: Assignment): AssignmentStatus | null {
  const status = a.AssignmentStatus
  return status !== undefined && STATUSES.has(status) ? status : null
}

function link(hitId: string, a: Assignment, sourceKey: string): AssignmentLink {
  return {
    assignmentId: a.AssignmentId ?? '',
    hitId,
    sourceKey,
    workerId: a.WorkerId ?? '',
    status: statusOf(a) ?? 'Submitted',
    autoApprovalAt: epochSeconds(a.AutoApprovalTime),
    reviewedAt: epochSeconds(a.ApprovalTime ?? a.RejectionTime),
  }
}
