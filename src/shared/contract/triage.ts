import { z } from 'zod'
import { isDay } from '../filter'
import { MAX_SEED } from '../stats/sampleKey'
import { call } from './define'

export type TriageFlag = 'rushing' | 'new'

/** Thresholds of the Today page's flags and the triage queue's default share (project settings). */
export const triageSettingsSchema = z.object({
  /** Share of each worker's new submissions a triage queue samples (at least one each). */
  queueShare: z.number().gt(0).max(1).default(0.05),
  /** Rushing: median work time below this many seconds … */
  rushSeconds: z.number().min(0).max(86_400).default(120),
  /** … or at least this share of minimal submissions (≤ 2 dimensions). */
  rushMinimalShare: z.number().min(0).max(1).default(0.5),
  /** New worker: first submission fewer than this many days before the range's last day. */
  newWorkerDays: z.number().int().min(0).max(365).default(7),
})
export type TriageSettings = z.output<typeof triageSettingsSchema>

/** A submission with at most this many dimensions filled is minimal. */
export const MINIMAL_DIMENSIONS = 2

export interface TriageWorker {
  workerId: string
  submissions: number
  /** Annotations per submission. */
  avgDimensions: number
  /** Median of submitted − accepted, over submissions with both times; null without any. */
  medianWorkSeconds: number | null
  /** Share of submissions with at most two dimensions. */
  minimalShare: number
  /** Share of this worker's annotations of the range per dimension 1–10. */
  dimensionProfile: number[]
  flags: TriageFlag[]
  /** Epoch seconds of the worker's first submission ever. */
  firstSubmittedAt: number | null
}

export interface TriageReport {
  /** The days covered, inclusive (UTC). */
  from: string
  to: string
  /** Share of all annotations of the range per dimension 1–10 (the crowd). */
  crowdProfile: number[]
  workers: TriageWorker[]
  /** Last day of the latest triage queue, when there is one. */
  lastTriagedDay: string | null
  /** Last day with submissions in the project. */
  lastDay: string | null
  settings: TriageSettings
}

const TRIAGE_MARKS = ['good', 'needs-work', 'bad'] as const
export type TriageMark = (typeof TRIAGE_MARKS)[number]

export interface TriageQueueItem {
  position: number
  submissionId: number
  workerId: string | null
  /** The submission's annotations (ids), dimension order. */
  annotationIds: number[]
  feedback: string
  /** Epoch ms; null while not reviewed. */
  reviewedAt: number | null
  marks: Array<{ annotationId: number; mark: TriageMark; note: string }>
  /** In a team project, the member who claimed the item to review it. */
  claimedBy?: string
}

/** A team member's share of a queue: items claimed, and of those reviewed. */
export interface TriageMemberProgress {
  member: string
  claimed: number
  reviewed: number
}

export interface TriageQueue {
  id: number
  from: string
  to: string
  share: number
  seed: number
  /** Epoch ms. */
  createdAt: number
  finishedAt: number | null
  items: TriageQueueItem[]
  /** Position of the first item not yet reviewed (nor claimed by another member); null when none. */
  next: number | null
  /** In a team project, each member's progress through the items they claimed. */
  members?: TriageMemberProgress[]
}

const day = z.string().refine(isDay, 'expected a date YYYY-MM-DD')
const triageRangeSchema = z
  .object({ from: day.optional(), to: day.optional() })
  .refine((r) => !r.from || !r.to || r.from <= r.to, {
    message: '`from` is after `to`',
    path: ['from'],
  })

const queueId = z.number().int().positive()

export const triageCalls = {
  /** Per worker figures for a range of days (default: since the last triage). */
  'triage.report': call(triageRangeSchema).returns<TriageReport>(),
  'triage.settings': call(z.object({})).returns<TriageSettings>(),
  'triage.saveSettings': call(triageSettingsSchema).returns<TriageSettings>(),
  /** Starts a queue: a seeded sample of each worker's submissions in the range. */
  'triage.startQueue': call(
    z
      .object({
        from: day,
        to: day,
        share: z.number().gt(0).max(1).optional(),
        seed: z.number().int().min(0).max(MAX_SEED).optional(),
      })
      .refine((r) => r.from <= r.to, { message: '`from` is after `to`', path: ['from'] }),
  ).returns<TriageQueue>(),
  /** The latest unfinished queue, to resume; null when there is none. */
  'triage.currentQueue': call(z.object({})).returns<TriageQueue | null>(),
  'triage.queue': call(z.object({ queueId })).returns<TriageQueue>(),
  /** Marks one annotation of a queued submission (null clears the mark). */
  'triage.mark': call(
    z.object({
      queueId,
      annotationId: z.number().int().positive(),
      mark: z.enum(TRIAGE_MARKS).nullable(),
      note: z.string().max(2000).optional(),
    }),
  ).returns<TriageQueue>(),
  /** Queues a feedback message for the item's worker (sent later through the worker actions). */
  'triage.feedback': call(
    z.object({ queueId, position: z.number().int().min(1), feedback: z.string().max(4096) }),
  ).returns<TriageQueue>(),
  /** In a team project: claims the next items no one has claimed for this member to review. */
  'triage.claim': call(z.object({ queueId, count: z.number().int().min(1).max(10_000) })).returns<{
    queue: number
    claimed: number[]
  }>(),
  /** Marks an item reviewed (the reviewer moved past it); the last one finishes the queue. */
  'triage.reviewed': call(
    z.object({ queueId, position: z.number().int().min(1), reviewed: z.boolean().default(true) }),
  ).returns<TriageQueue>(),
}
