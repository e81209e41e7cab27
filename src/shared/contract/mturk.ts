import { z } from 'zod'
import { annotationFilterSchema } from '../filter'
import { call } from './define'
import { type PickedFile, fileRefSchema } from './imports'

/** Calls and types of the Mechanical Turk domain: connection, pulls, and actions on workers. */

export type MTurkEndpointKind = 'sandbox' | 'production' | 'custom'
export type AssignmentStatus = 'Submitted' | 'Approved' | 'Rejected'

/** Where the access key pair comes from; the secret itself never reaches the page. */
export type CredentialSource = 'keychain' | 'environment' | 'profile' | 'session' | 'none'

export interface CredentialInfo {
  source: CredentialSource
  /** In the user's words, e.g. "environment variables (AWS_ACCESS_KEY_ID, …)". */
  label: string
  set: boolean
  /** The access key id's last four characters, `…MPLE`; null when none is set. */
  accessKeyHint: string | null
  /** Whether the page may enter or clear a pair here. */
  editable: boolean
}

export interface MTurkSettings {
  endpoint: MTurkEndpointKind
  /** The URL typed for a custom endpoint (the local stand-in, for instance). */
  customUrl: string | null
  /** The URL requests go to. */
  url: string
  credentials: CredentialInfo
}

export interface MTurkBalance {
  /** Dollars as the service writes them, e.g. `"10000.00"`. */
  available: string
  onHold: string | null
}

export interface MTurkConnectionTest {
  ok: boolean
  /** One sentence saying what happened, e.g. "Connected to the sandbox. Balance $10,000.00." */
  message: string
  url: string
  balance: MTurkBalance | null
  /** The service's error name or code when it failed. */
  code: string | null
}

/** A HIT as the service lists it (times in epoch seconds). */
export interface MTurkHit {
  hitId: string
  hitTypeId: string
  title: string
  /** Epoch seconds. */
  createdAt: number | null
  expiresAt: number | null
  /** When the service disposes of the HIT and its work (creation + 120 days). */
  disposalAt: number | null
  status: string | null
  maxAssignments: number | null
}

/** A HIT the project knows, with its pulled work. */
export interface MTurkHitRow extends MTurkHit {
  /** Whole days until disposal (negative once past); null when unknown. */
  daysToDisposal: number | null
  /** Within 10 days of disposal: pull it now. */
  nearDisposal: boolean
  /** Assignments of this HIT in the project, by status. */
  pulled: Record<AssignmentStatus, number>
  /** Epoch ms of its last complete pull. */
  pulledAt: number | null
  /** The service no longer lists it (disposed or deleted). */
  gone: boolean
}

export interface MTurkPullRun {
  id: number
  mode: 'all' | 'new'
  selection: PullSelection
  state: 'running' | 'done' | 'cancelled' | 'failed'
  startedAt: number
  finishedAt: number | null
  hits: number
  assignments: number
  new: number
  updated: number
}

/** What `winnow pull --json` prints, plus what the page shows after a pull. */
export interface MTurkPullResult {
  pullId: number
  /** HITs selected. */
  hits: number
  /** Assignments fetched. */
  assignments: number
  /** Assignments added as submissions (or, pulling an exam's HITs, as its attempts). */
  new: number
  /** Known assignments whose status changed. */
  updated: number
  /** HITs not fetched because nothing changed since their last pull ("pull new"). */
  skipped: number
  /** HITs the service no longer has. */
  gone: number
  nearDisposal: number
  /** This pull continued an interrupted one. */
  resumed: boolean
}

export interface MTurkSummary {
  hits: number
  nearDisposal: number
  /** Pulled submissions by MTurk status. */
  byStatus: Record<AssignmentStatus, number>
  lastPull: MTurkPullRun | null
}

export interface ActionErrorInfo {
  name: string
  code?: string
  message: string
  httpStatus?: number
}

/** One recorded action, as the worker's page lists it. */
export interface WorkerActionEntry {
  id: number
  action: WorkerActionKind
  /** Epoch ms. */
  at: number
  assignmentId: string | null
  /** The workers it was about (NotifyWorkers: up to 100). */
  workers: number
  /** What was sent (the operation's input) and what came back. */
  request: unknown
  response: unknown
  error: ActionErrorInfo | null
  /** This worker's own failure inside a batch (NotifyWorkers). */
  failure: string | null
  note: string
  requestId: string | null
  changeSet: number | null
}

export type WorkerActionKind =
  'approve' | 'reject' | 'bonus' | 'notify' | 'qualify' | 'disqualify' | 'block' | 'unblock'

export interface ActionFailure {
  workerId: string
  assignmentId?: string
  message: string
}

export interface ActionOutcome {
  action: WorkerActionKind
  /** Requests that ended well (including a lost success confirmed afterwards). */
  succeeded: number
  failed: number
  /** Not sent: already done according to the project's records (a bonus paid before). */
  skipped: number
  entries: WorkerActionEntry[]
  failures: ActionFailure[]
  /** The change set of local changes (approvals' statuses), if any. */
  changeSet: number | null
}

export interface WorkerAssignment {
  assignmentId: string
  hitId: string
  hitTitle: string
  status: AssignmentStatus
  submissionId: number
  /** Epoch seconds. */
  acceptedAt: number | null
  submittedAt: number | null
  /** Submit − accept, in seconds. */
  workSeconds: number | null
  autoApprovalAt: number | null
  /** Bonuses paid on it according to the project's records, in dollars. */
  bonusPaid: string
}

export interface QualificationTypeRow {
  id: string
  name: string
  description: string
  status: string
  /** Workers holding it (Granted), when counted. */
  count: number | null
}

/** Who the MTurk actions on a whole grid query would be about (`mturk.queryTargets`). */
export interface QueryTargetCounts {
  /** Distinct assignments (approve, reject). */
  assignments: number
  /** Distinct workers (message, qualify, disqualify, block, unblock). */
  workers: number
  /** Workers with an assignment: one bonus each, on their latest assignment in the query. */
  bonusAssignments: number
  /** A few of the workers, for the confirmation. */
  sampleWorkers: string[]
}

/** A mapping file's form fields onto release columns, remembered for the project. */
export interface MTurkFieldMapping {
  /** The file it was read from. */
  name: string
  fields: { field: string; column: string }[]
}

export type PullSelection = z.infer<typeof pullSelectionSchema>

/** Most targets one action may have, named one by one or through a query. */
export const MAX_ACTION_TARGETS = 10_000

const awsId = z.string().regex(/^[A-Z0-9]{1,64}$/, 'expected an MTurk id (A–Z, 0–9)')
const workerId = z.string().regex(/^A[A-Z0-9]{1,63}$/, 'expected an MTurk worker id (A…)')
const workerIds = z.array(workerId).min(1).max(MAX_ACTION_TARGETS)
const assignmentIds = z.array(awsId).min(1).max(MAX_ACTION_TARGETS)
const money = z
  .string()
  .trim()
  .regex(/^[0-9]+(\.[0-9]{1,2})?$/, 'expected dollars, e.g. 0.50')
  .refine((v) => Number(v) > 0, 'must be more than 0')

/**
 * Everything a grid query selects, resolved in main to distinct assignments or workers.
 * `expected` is the count the user confirmed: if the query now selects another number, nothing is
 * sent.
 */
const queryTargetSchema = z.object({
  filter: annotationFilterSchema,
  expected: z.number().int().min(1).max(MAX_ACTION_TARGETS),
})
export type QueryTarget = z.infer<typeof queryTargetSchema>

/** Exactly one of the listed ids and a query: `.refine(...oneTarget('workerIds'))`. */
function oneTarget(
  listed: string,
): [(args: Record<string, unknown>) => boolean, { message: string; path: string[] }] {
  return [
    (args) => (args[listed] === undefined) !== (args.query === undefined),
    { message: `give either ${listed} or query`, path: [listed] },
  ]
}

export const pullSelectionSchema = z.object({
  hitTypeIds: z.array(awsId).max(100).optional(),
  titleContains: z.string().trim().max(200).optional(),
  /**
   * The HITs are this CROWDAQ exam's qualification HITs: their assignments are pulled as the
   * exam's attempts (answers keyed by question id), not as submissions.
   */
  examId: z
    .string()
    .regex(/^[a-zA-Z0-9_]+$/, 'expected an exam id of letters, digits and _')
    .max(200)
    .optional(),
})

const endpointSchema = z.object({
  endpoint: z.enum(['sandbox', 'production', 'custom']),
  customUrl: z.string().trim().max(500).optional(),
})

export const mturkCalls = {
  'mturk.settings': call(z.object({})).returns<MTurkSettings>(),
  'mturk.saveSettings': call(endpointSchema).returns<MTurkSettings>(),
  /** Stores the key pair where this mode keeps it (keychain, or memory in serve mode). */
  'mturk.setCredentials': call(
    z.object({
      accessKeyId: z.string().trim().min(16).max(128),
      secretAccessKey: z.string().trim().min(16).max(256),
    }),
  ).returns<MTurkSettings>(),
  'mturk.clearCredentials': call(z.object({})).returns<MTurkSettings>(),
  /** GetAccountBalance with the saved settings; never throws for a service error. */
  'mturk.test': call(z.object({})).returns<MTurkConnectionTest>(),
  'mturk.balance': call(z.object({})).returns<MTurkBalance>(),
  'mturk.summary': call(z.object({})).returns<MTurkSummary>(),
  /** HITs known to the project; `refresh` lists them from the service first. */
  'mturk.hits': call(z.object({ refresh: z.boolean().optional() })).returns<MTurkHitRow[]>(),
  /** Starts a pull job (kind `pull`); an interrupted pull with the same selection resumes. */
  'mturk.pull': call(pullSelectionSchema.extend({ mode: z.enum(['all', 'new']) })).returns<{
    jobId: string
  }>(),
  /** The project's field mapping for pulls; null: fields carry the release column names. */
  'mturk.fieldMapping': call(z.object({})).returns<MTurkFieldMapping | null>(),
  /** Electron only: the native Open dialog for a JSON mapping file. Null when cancelled. */
  'mturk.pickFieldMapping': call(z.object({})).returns<PickedFile | null>(),
  /**
   * Checks a chosen mapping file and remembers it for the project's pulls (null: back to the
   * release column names). A file with problems is refused, naming its fields; nothing changes.
   */
  'mturk.setFieldMapping': call(
    z.object({ file: fileRefSchema.nullable() }),
  ).returns<MTurkFieldMapping | null>(),
  'mturk.workerAssignments': call(z.object({ workerId: z.string().min(1).max(200) })).returns<
    WorkerAssignment[]
  >(),
  /** Every action recorded about a worker, newest first. */
  'mturk.workerActions': call(z.object({ workerId: z.string().min(1).max(200) })).returns<
    WorkerActionEntry[]
  >(),
  /** Counts of who the actions on a whole grid query would be about; nothing is sent. */
  'mturk.queryTargets': call(
    z.object({ filter: annotationFilterSchema }),
  ).returns<QueryTargetCounts>(),
  'mturk.approve': call(
    z
      .object({
        assignmentIds: assignmentIds.optional(),
        query: queryTargetSchema.optional(),
        feedback: z.string().max(1024).optional(),
      })
      .refine(...oneTarget('assignmentIds')),
  ).returns<ActionOutcome>(),
  'mturk.reject': call(
    z
      .object({
        assignmentIds: assignmentIds.optional(),
        query: queryTargetSchema.optional(),
        feedback: z.string().trim().min(1, 'feedback is required to reject').max(1024),
      })
      .refine(...oneTarget('assignmentIds')),
  ).returns<ActionOutcome>(),
  /**
   * One bonus per item, or per worker of a query (on their latest assignment in it); refused when
   * the total exceeds the available balance.
   */
  'mturk.bonus': call(
    z
      .object({
        items: z
          .array(z.object({ workerId, assignmentId: awsId }))
          .min(1)
          .max(MAX_ACTION_TARGETS)
          .optional(),
        query: queryTargetSchema.optional(),
        amount: money,
        reason: z.string().trim().min(1, 'a reason is required').max(4096),
      })
      .refine(...oneTarget('items')),
  ).returns<ActionOutcome>(),
  'mturk.notify': call(
    z
      .object({
        workerIds: workerIds.optional(),
        query: queryTargetSchema.optional(),
        subject: z.string().trim().min(1).max(200),
        message: z.string().trim().min(1).max(4096),
      })
      .refine(...oneTarget('workerIds')),
  ).returns<ActionOutcome>(),
  'mturk.qualify': call(
    z
      .object({
        workerIds: workerIds.optional(),
        query: queryTargetSchema.optional(),
        qualificationTypeId: awsId,
        value: z.number().int().min(-2147483648).max(2147483647),
        notify: z.boolean().optional(),
      })
      .refine(...oneTarget('workerIds')),
  ).returns<ActionOutcome>(),
  'mturk.disqualify': call(
    z
      .object({
        workerIds: workerIds.optional(),
        query: queryTargetSchema.optional(),
        qualificationTypeId: awsId,
        reason: z.string().max(1024).optional(),
      })
      .refine(...oneTarget('workerIds')),
  ).returns<ActionOutcome>(),
  'mturk.block': call(
    z
      .object({
        workerIds: workerIds.optional(),
        query: queryTargetSchema.optional(),
        reason: z.string().trim().min(1, 'a reason is required').max(1024),
      })
      .refine(...oneTarget('workerIds')),
  ).returns<ActionOutcome>(),
  'mturk.unblock': call(
    z
      .object({
        workerIds: workerIds.optional(),
        query: queryTargetSchema.optional(),
        reason: z.string().max(1024).optional(),
      })
      .refine(...oneTarget('workerIds')),
  ).returns<ActionOutcome>(),
  /** The qualification types this account owns; `counts` also counts their workers. */
  'mturk.qualificationTypes': call(z.object({ counts: z.boolean().optional() })).returns<
    QualificationTypeRow[]
  >(),
  'mturk.countQualified': call(z.object({ qualificationTypeId: awsId })).returns<{
    count: number
  }>(),
}

export const mturkEvents = {}
