/**
 * The stand-in's in-memory account: HITs, assignments, qualifications, blocks, bonuses,
 * notifications and a request log. Times are epoch milliseconds here; the wire layer converts them
 * to epoch seconds. Time-driven changes (auto-approval, 120-day disposal) are applied lazily
 * against the injected clock, so tests can move time without timers.
 */

type HITStatus = 'Assignable' | 'Unassignable' | 'Reviewable' | 'Reviewing' | 'Disposed'
export type AssignmentStatus = 'Submitted' | 'Approved' | 'Rejected'

interface QualificationRequirement {
  QualificationTypeId: string
  Comparator: string
  IntegerValues?: number[]
  LocaleValues?: { Country: string; Subdivision?: string }[]
  RequiredToPreview?: boolean
  ActionsGuarded?: string
}

export interface HITRecord {
  HITId: string
  HITTypeId: string
  HITGroupId: string
  HITLayoutId?: string
  CreationTime: number
  Title: string
  Description: string
  Question: string
  Keywords: string
  HITStatus: HITStatus
  MaxAssignments: number
  Reward: string
  AutoApprovalDelayInSeconds: number
  Expiration: number
  AssignmentDurationInSeconds: number
  RequesterAnnotation?: string
  QualificationRequirements: QualificationRequirement[]
  HITReviewStatus:
    'NotReviewed' | 'MarkedForReview' | 'ReviewedAppropriate' | 'ReviewedInappropriate'
  deleted: boolean
}

export interface AssignmentRecord {
  AssignmentId: string
  WorkerId: string
  HITId: string
  AssignmentStatus: AssignmentStatus
  AcceptTime: number
  SubmitTime: number
  AutoApprovalTime: number
  ApprovalTime?: number
  RejectionTime?: number
  Deadline: number
  Answer: string
  RequesterFeedback?: string
}

export interface QualificationTypeRecord {
  QualificationTypeId: string
  CreationTime: number
  Name: string
  Description: string
  Keywords?: string
  QualificationTypeStatus: 'Active' | 'Inactive'
  Test?: string
  AnswerKey?: string
  TestDurationInSeconds?: number
  RetryDelayInSeconds?: number
  IsRequestable: boolean
  AutoGranted: boolean
  AutoGrantedValue?: number
  /** Types owned by another requester can be listed but not granted. */
  owned: boolean
}

export interface QualificationRecord {
  QualificationTypeId: string
  WorkerId: string
  GrantTime: number
  IntegerValue: number
  Status: 'Granted' | 'Revoked'
}

export interface BonusRecord {
  WorkerId: string
  BonusAmount: string
  AssignmentId: string
  Reason: string
  GrantTime: number
  UniqueRequestToken?: string
  requestId: string
}

export interface NotificationRecord {
  WorkerId: string
  Subject: string
  MessageText: string
  at: number
}

/** One line per request; never headers (the authorization header names the access key). */
export interface RequestLogEntry {
  at: number
  operation: string
  requestId: string
  status: number
  input: unknown
  errorType?: string
  errorCode?: string
  fault?: string
}

export const DAY_MS = 86_400_000
const DISPOSAL_MS = 120 * DAY_MS
const OVERRIDE_WINDOW_MS = 30 * DAY_MS

export type NewHIT = Partial<HITRecord> & Pick<HITRecord, 'Title'>
export type NewAssignment = Partial<AssignmentRecord> & Pick<AssignmentRecord, 'HITId' | 'WorkerId'>

export class StandinState {
  readonly hits = new Map<string, HITRecord>()
  readonly assignments = new Map<string, AssignmentRecord>()
  readonly qualificationTypes = new Map<string, QualificationTypeRecord>()
  /** Keyed `<typeId>/<workerId>`. */
  readonly qualifications = new Map<string, QualificationRecord>()
  readonly blocks = new Map<string, string>()
  readonly bonuses: BonusRecord[] = []
  readonly notifications: NotificationRecord[] = []
  readonly requests: RequestLogEntry[] = []
  /** UniqueRequestToken → when it was used and by which request. */
  readonly bonusTokens = new Map<string, { at: number; requestId: string }>()
  balanceCents = 10_000_00
  onHoldCents = 0
  private serial = 0
  /** Assignments per HIT in insertion order: listing a HIT's work must not scan every assignment. */
  private readonly byHIT = new Map<string, AssignmentRecord[]>()

  constructor(readonly now: () => number = Date.now) {}

  /** A deterministic id in the service's alphabet, e.g. `3H0000…12`. */
  newId(prefix: string, length = 30): string {
    this.serial++
    return (
      prefix +
      this.serial
        .toString(36)
        .toUpperCase()
        .padStart(length - prefix.length, '0')
    )
  }

  addHIT(partial: NewHIT): HITRecord {
    const now = this.now()
    const hit: HITRecord = {
      HITId: this.newId('3H'),
      HITTypeId: '3T' + 'DEMO'.padStart(28, '0'),
      HITGroupId: '3G' + 'DEMO'.padStart(28, '0'),
      CreationTime: now,
      Description: '',
      Question: '',
      Keywords: '',
      HITStatus: 'Assignable',
      MaxAssignments: 1,
      Reward: '0.50',
      AutoApprovalDelayInSeconds: 3 * 86_400,
      Expiration: now + 7 * DAY_MS,
      AssignmentDurationInSeconds: 3600,
      QualificationRequirements: [],
      HITReviewStatus: 'NotReviewed',
      deleted: false,
      ...partial,
    }
    this.hits.set(hit.HITId, hit)
    return hit
  }

  addAssignment(partial: NewAssignment): AssignmentRecord {
    const hit = this.hits.get(partial.HITId)
    if (!hit) throw new Error(`addAssignment: no HIT ${partial.HITId}`)
    const submit = partial.SubmitTime ?? this.now()
    const accept = partial.AcceptTime ?? submit - 5 * 60_000
    const a: AssignmentRecord = {
      AssignmentId: this.newId('3A'),
      AssignmentStatus: 'Submitted',
      AcceptTime: accept,
      SubmitTime: submit,
      AutoApprovalTime: submit + hit.AutoApprovalDelayInSeconds * 1000,
      Deadline: accept + hit.AssignmentDurationInSeconds * 1000,
      Answer: '',
      ...partial,
    }
    if (this.assignments.has(a.AssignmentId)) {
      throw new Error(`addAssignment: ${a.AssignmentId} exists`)
    }
    if (a.AssignmentStatus === 'Approved') a.ApprovalTime ??= submit + 60_000
    if (a.AssignmentStatus === 'Rejected') a.RejectionTime ??= submit + 60_000
    this.assignments.set(a.AssignmentId, a)
    const list = this.byHIT.get(a.HITId)
    if (list) list.push(a)
    else this.byHIT.set(a.HITId, [a])
    return a
  }

  addQualificationType(
    partial: Partial<QualificationTypeRecord> & Pick<QualificationTypeRecord, 'Name'>,
  ): QualificationTypeRecord {
    const q: QualificationTypeRecord = {
      QualificationTypeId: this.newId('3Q'),
      CreationTime: this.now(),
      Description: partial.Name,
      QualificationTypeStatus: 'Active',
      IsRequestable: true,
      AutoGranted: false,
      owned: true,
      ...partial,
    }
    this.qualificationTypes.set(q.QualificationTypeId, q)
    return q
  }

  grant(typeId: string, workerId: string, value = 1): QualificationRecord {
    const q: QualificationRecord = {
      QualificationTypeId: typeId,
      WorkerId: workerId,
      GrantTime: this.now(),
      IntegerValue: value,
      Status: 'Granted',
    }
    this.qualifications.set(`${typeId}/${workerId}`, q)
    return q
  }

  qualification(typeId: string, workerId: string): QualificationRecord | undefined {
    return this.qualifications.get(`${typeId}/${workerId}`)
  }

  isDisposed(hit: HITRecord): boolean {
    return hit.deleted || this.now() >= hit.CreationTime + DISPOSAL_MS
  }

  /** A live HIT, or undefined once deleted or disposed. */
  liveHIT(hitId: string): HITRecord | undefined {
    const hit = this.hits.get(hitId)
    return hit && !this.isDisposed(hit) ? hit : undefined
  }

  /** An assignment of a live HIT, with auto-approval applied. */
  liveAssignment(assignmentId: string): AssignmentRecord | undefined {
    const a = this.assignments.get(assignmentId)
    if (!a || !this.liveHIT(a.HITId)) return undefined
    return this.settle(a)
  }

  /** Submitted work turns Approved by itself at AutoApprovalTime. */
  settle(a: AssignmentRecord): AssignmentRecord {
    if (a.AssignmentStatus === 'Submitted' && this.now() >= a.AutoApprovalTime) {
      a.AssignmentStatus = 'Approved'
      a.ApprovalTime = a.AutoApprovalTime
    }
    return a
  }

  assignmentsOf(hitId: string): AssignmentRecord[] {
    return (this.byHIT.get(hitId) ?? []).map((a) => this.settle(a))
  }

  canOverrideRejection(a: AssignmentRecord): boolean {
    return this.now() <= a.SubmitTime + OVERRIDE_WINDOW_MS
  }

  /** Workers this requester has approved or rejected at least once (NotifyWorkers' audience). */
  hasReviewed(workerId: string): boolean {
    for (const a of this.assignments.values()) {
      if (a.WorkerId === workerId && this.settle(a).AssignmentStatus !== 'Submitted') return true
    }
    return false
  }
}
