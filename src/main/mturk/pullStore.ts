/**
 * Stores a pull page by page, each page in its own small transaction together with its HIT's
 * checkpoint: a kill loses at most the page in flight, and a resumed pull starts after the last
 * stored page. New assignments go through SubmissionWriter (raw answer verbatim, status, times)
 * and the ratings reconstruction, as an import does, so effective ratings stay consistent; known
 * ones only get their status updated. Each page's text is indexed for search in its transaction.
 */
import type { Assignment } from '@aws-sdk/client-mturk'
import type { AssignmentStatus } from '../../shared/contract/mturk'
import type { Db } from '../db/connection'
import { createChangeSet, describeChangeSet } from '../db/queries/changeSets'
import { recordEffects } from '../db/queries/history'
import {
  type AssignmentLink,
  knownAssignments,
  linkAssignments,
  setAssignmentStatus,
} from '../db/queries/mturkAssignments'
import { markHitGone, markHitPulled } from '../db/queries/mturkHits'
import {
  addEffects,
  addPullCounts,
  effectsOf,
  latestChangeSetId,
  saveCheckpoint,
} from '../db/queries/mturkPulls'
import { pendingCount } from '../db/queries/ratingsImport'
import { indexSearchBacklog } from '../db/queries/search'
import { SubmissionWriter } from '../db/queries/submissions'
import { reconstructImportedRatings } from '../ratings/importTimelines'
import { type FieldMap, mapAssignment } from './glucose-map'
import type { PullBatch } from './pull'
import { hitSignature } from './pullPlan'

export interface PageResult {
  /** Assignments on the page. */
  assignments: number
  /** Submissions added. */
  added: number
  annotations: number
  /** Known assignments whose status changed. */
  updated: number
}

/** Where a page's time went, in ms (the benchmark reads these). */
export interface PullTiming {
  parseMs: number
  storeMs: number
}

export interface PullStoreOptions {
  author: string
  /** Epoch ms. */
  now: () => number
  map?: FieldMap
  timing?: PullTiming
}

const STATUSES: ReadonlySet<string> = new Set<AssignmentStatus>([
  'Submitted',
  'Approved',
  'Rejected',
])

export class PullStore {
  /** The change set this pull writes into, while no other change set has come after it. */
  private changeSet: { id: number; at: number } | null = null
  /**
   * One writer per change set: its statements and id counter stay valid as long as nothing else
   * wrote, and every other writer of submissions opens a change set first.
   */
  private writer: SubmissionWriter | null = null
  private readonly written = { submissions: 0, annotations: 0 }

  constructor(
    private readonly db: Db,
    private readonly pullId: number,
    private readonly options: PullStoreOptions,
  ) {}

  storePage(batch: PullBatch): PageResult {
    const { db, options } = this
    const hitId = batch.hit.HITId ?? ''
    const present = batch.assignments.filter((a) => a.AssignmentId && a.WorkerId)
    const known = knownAssignments(
      db,
      present.map((a) => a.AssignmentId ?? ''),
    )
    const fresh = present.filter((a) => !known.has(a.AssignmentId ?? ''))

    const parseStart = performance.now()
    const mapped = fresh.map((a) =>
      mapAssignment(batch.hit, a, options.map ? { map: options.map } : {}),
    )
    const storeStart = performance.now()

    const store = db.transaction((): PageResult & { changeSetId: number | null } => {
      const at = options.now()
      let added = 0
      let annotations = 0
      let changeSetId: number | null = null
      if (mapped.length > 0) {
        const changeSet = this.changeSetFor()
        changeSetId = changeSet.id
        const writer = (this.writer ??= new SubmissionWriter(db, changeSet.id, null))
        const before = { ...writer.counts }
        for (const submission of mapped) writer.write(submission)
        writer.finish()
        linkAssignments(
          db,
          fresh.map((a, i) => link(hitId, a, mapped[i]?.sourceKey ?? '')),
          at,
        )
        added = writer.counts.submissions - before.submissions
        annotations = writer.counts.annotations - before.annotations
        // The page's text is searchable as soon as the page is stored.
        if (annotations > 0) indexSearchBacklog(db, annotations)
        this.written.submissions += added
        this.written.annotations += annotations
        this.reconstructRatings(changeSet)
        describeChangeSet(
          db,
          changeSet.id,
          `Pulled from MTurk: ${this.written.submissions} submissions, ${this.written.annotations} annotations`,
        )
      }
      let updated = 0
      for (const a of present) {
        const before = known.get(a.AssignmentId ?? '')
        const status = statusOf(a)
        if (before === undefined || status === null || before === status) continue
        const reviewedAt = epochSeconds(a.ApprovalTime ?? a.RejectionTime)
        if (
          setAssignmentStatus(db, { assignmentId: a.AssignmentId ?? '', status, reviewedAt, at })
        ) {
          updated++
        }
      }
      const done = batch.nextToken === undefined
      saveCheckpoint(db, this.pullId, hitId, { nextToken: batch.nextToken ?? null, done })
      if (batch.gone) markHitGone(db, hitId, at)
      else if (done) markHitPulled(db, hitId, hitSignature(batch.hit), at)
      addPullCounts(db, this.pullId, { assignments: present.length, added, updated, changeSetId })
      return { assignments: present.length, added, annotations, updated, changeSetId }
    })
    let result: ReturnType<typeof store>
    try {
      result = store()
    } catch (error) {
      // Rolled back: a change set or writer state made in it no longer matches the file.
      this.changeSet = null
      this.writer = null
      throw error
    }

    if (options.timing) {
      options.timing.parseMs += storeStart - parseStart
      options.timing.storeMs += performance.now() - storeStart
    }
    const { changeSetId: _changeSetId, ...counts } = result
    return counts
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

function epochSeconds(d: Date | undefined): number | null {
  return d === undefined ? null : Math.floor(d.getTime() / 1000)
}
