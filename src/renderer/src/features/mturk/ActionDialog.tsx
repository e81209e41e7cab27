import { useEffect, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import {
  type ActionOutcome,
  MAX_ACTION_TARGETS,
  type MTurkBalance,
  type QualificationTypeRow,
  type QueryTargetCounts,
  type WorkerActionKind,
} from '../../../../shared/contract/mturk'
import { type AnnotationFilter, describeFilter } from '../../../../shared/filter'
import { api } from '../../api'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { formatCount, plural } from '../../lib/format'
import { ErrorText } from '../messages/Messages'
import { showInfo } from '../messages/messages'
import { Modal } from '../shell/Modal'
import { actionsChanged, describeOutcome, formatDollars, parseCents } from './mturkState'

/** Who an action is about: workers, and assignments (with their workers) for reviews and bonuses. */
export interface ActionTargets {
  workers: string[]
  /** For approve/reject: every assignment; for a bonus: the one assignment per worker it is paid on. */
  assignments: { assignmentId: string; workerId: string }[]
  /**
   * Instead of the lists: a whole grid query, counted by main; main resolves it again on confirm
   * and sends nothing if the count it confirmed has changed.
   */
  query?: { filter: AnnotationFilter; counts: QueryTargetCounts }
}

const TITLES: Record<WorkerActionKind, string> = {
  approve: 'Approve assignments',
  reject: 'Reject assignments',
  bonus: 'Send a bonus',
  notify: 'Message workers',
  qualify: 'Qualify workers',
  disqualify: 'Disqualify workers',
  block: 'Block workers',
  unblock: 'Unblock workers',
}

/** The form of one action on MTurk, what it will do, and what it did. */
export function ActionDialog({
  kind,
  targets,
  onClose,
}: {
  kind: WorkerActionKind
  targets: ActionTargets
  onClose: () => void
}) {
  const [text, setText] = useState('') // feedback, reason or message
  const [subject, setSubject] = useState('')
  const [amount, setAmount] = useState('')
  const [typeId, setTypeId] = useState('')
  const [value, setValue] = useState('1')
  const [notifyWorker, setNotifyWorker] = useState(false)
  const [types, setTypes] = useState<QualificationTypeRow[] | null>(null)
  const [balance, setBalance] = useState<MTurkBalance | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null)
  const byAssignment = kind === 'approve' || kind === 'reject' || kind === 'bonus'
  const query = targets.query
  const count = query
    ? kind === 'bonus'
      ? query.counts.bonusAssignments
      : byAssignment
        ? query.counts.assignments
        : query.counts.workers
    : byAssignment
      ? targets.assignments.length
      : targets.workers.length
  const tooMany = count > MAX_ACTION_TARGETS

  useEffect(() => {
    let live = true
    if (kind === 'bonus') {
      api.mturk
        .balance({})
        .then((b) => live && setBalance(b))
        .catch((e: unknown) => live && setError(toErrorInfo(e)))
    }
    if (kind === 'qualify' || kind === 'disqualify') {
      api.mturk
        .qualificationTypes({})
        .then((t) => {
          if (!live) return
          setTypes(t)
          setTypeId((current) => current || (t[0]?.id ?? ''))
        })
        .catch((e: unknown) => live && setError(toErrorInfo(e)))
    }
    return () => {
      live = false
    }
  }, [kind])

  const cents = parseCents(amount)
  const totalCents = cents === null ? null : cents * count
  const availableCents = balance ? (parseCents(balance.available) ?? 0) : null
  const overBalance = totalCents !== null && availableCents !== null && totalCents > availableCents
  const integer = /^-?\d+$/.test(value.trim())

  const ready = ((): boolean => {
    if (count === 0 || tooMany || busy || outcome) return false
    switch (kind) {
      case 'reject':
      case 'block':
        return text.trim() !== ''
      case 'bonus':
        return cents !== null && text.trim() !== '' && availableCents !== null && !overBalance
      case 'notify':
        return subject.trim() !== '' && text.trim() !== ''
      case 'qualify':
        return typeId !== '' && integer
      case 'disqualify':
        return typeId !== ''
      default:
        return true
    }
  })()

  async function run() {
    setBusy(true)
    setError(null)
    // A query goes to main as it is, with the count confirmed here.
    const byQuery = query ? { query: { filter: query.filter, expected: count } } : null
    const workers = byQuery ?? { workerIds: targets.workers }
    const assignments = byQuery ?? {
      assignmentIds: targets.assignments.map((a) => a.assignmentId),
    }
    const reason = text.trim()
    try {
      const result = await (() => {
        switch (kind) {
          case 'approve':
            return api.mturk.approve({ ...assignments, ...(reason ? { feedback: reason } : {}) })
          case 'reject':
            return api.mturk.reject({ ...assignments, feedback: reason })
          case 'bonus':
            return api.mturk.bonus({
              ...(byQuery ?? { items: targets.assignments }),
              amount: amount.trim(),
              reason,
            })
          case 'notify':
            return api.mturk.notify({ ...workers, subject: subject.trim(), message: reason })
          case 'qualify':
            return api.mturk.qualify({
              ...workers,
              qualificationTypeId: typeId,
              value: Number(value),
              notify: notifyWorker,
            })
          case 'disqualify':
            return api.mturk.disqualify({
              ...workers,
              qualificationTypeId: typeId,
              ...(reason ? { reason } : {}),
            })
          case 'block':
            return api.mturk.block({ ...workers, reason })
          case 'unblock':
            return api.mturk.unblock({ ...workers, ...(reason ? { reason } : {}) })
        }
      })()
      setOutcome(result)
      actionsChanged()
      showInfo(describeOutcome(result, TITLES[kind]))
      if (result.failed === 0 && result.failures.length === 0) onClose()
    } catch (e) {
      setError(toErrorInfo(e))
    } finally {
      setBusy(false)
    }
  }

  const who = byAssignment
    ? `${formatCount(count)} assignment${count === 1 ? '' : 's'}`
    : `${formatCount(count)} worker${count === 1 ? '' : 's'}`
  const confirmLabel =
    kind === 'bonus'
      ? totalCents === null
        ? 'Pay'
        : `Pay ${formatDollars(totalCents / 100)}`
      : `${TITLES[kind].split(' ')[0] ?? 'Send'} ${who}`
  return (
    <Modal
      title={TITLES[kind]}
      onClose={onClose}
      testId="mturk-action-dialog"
      footer={
        <>
          <button onClick={onClose}>{outcome ? 'Close' : 'Cancel'}</button>
          <button
            className={kind === 'reject' || kind === 'block' ? 'danger' : 'primary'}
            data-testid={kind === 'bonus' ? 'bonus-confirm' : 'mturk-action-confirm'}
            disabled={!ready}
            onClick={() => void run()}
          >
            {busy ? 'Sending…' : confirmLabel}
          </button>
        </>
      }
    >
      <p className="note" data-testid="mturk-action-targets">
        {query ? (
          <QueryTargetsNote kind={kind} who={who} counts={query.counts} filter={query.filter} />
        ) : byAssignment ? (
          `${who} of ${plural(new Set(targets.assignments.map((a) => a.workerId)).size, 'worker')}`
        ) : (
          `${who}: ${targets.workers.slice(0, 5).join(', ')}${targets.workers.length > 5 ? ', …' : ''}`
        )}
      </p>
      {tooMany && (
        <p className="field-error" data-testid="mturk-too-many">
          One action can go to at most {formatCount(MAX_ACTION_TARGETS)}; narrow the query.
        </p>
      )}
      {kind === 'bonus' && (
        <label className="field">
          <span>Amount per assignment (US dollars)</span>
          <input
            data-testid="bonus-amount"
            inputMode="decimal"
            placeholder="0.50"
            value={amount}
            autoFocus
            onChange={(e) => setAmount(e.target.value)}
          />
          {amount.trim() !== '' && cents === null && (
            <span className="field-error">A positive amount such as 0.50.</span>
          )}
        </label>
      )}
      {kind === 'notify' && (
        <label className="field">
          <span>Subject</span>
          <input
            data-testid="notify-subject"
            maxLength={200}
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
          />
        </label>
      )}
      {(kind === 'qualify' || kind === 'disqualify') && (
        <div className="field-row">
          <label className="field mturk-grow">
            <span>Qualification type</span>
            <select
              data-testid="qualification-type"
              value={typeId}
              onChange={(e) => setTypeId(e.target.value)}
            >
              {types === null && <option value="">Loading…</option>}
              {types?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          {kind === 'qualify' && (
            <label className="field">
              <span>Value</span>
              <input
                data-testid="qualification-value"
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            </label>
          )}
        </div>
      )}
      {kind === 'qualify' && (
        <label className="check">
          <input
            type="checkbox"
            checked={notifyWorker}
            onChange={(e) => setNotifyWorker(e.target.checked)}
          />{' '}
          Tell the workers by email
        </label>
      )}
      {kind !== 'qualify' && (
        <label className="field">
          <span>{textLabel(kind)}</span>
          <textarea
            rows={kind === 'notify' ? 5 : 2}
            maxLength={kind === 'notify' || kind === 'bonus' ? 4096 : 1024}
            data-testid={kind === 'bonus' ? 'bonus-reason' : 'mturk-action-text'}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      {kind === 'bonus' && (
        <div className="mturk-confirm" data-testid="bonus-summary">
          <dl>
            <dt>Bonuses</dt>
            <dd>
              {count} × {cents === null ? '—' : formatDollars(cents / 100)}
            </dd>
            <dt>Total</dt>
            <dd data-testid="bonus-total">
              {totalCents === null ? '—' : formatDollars(totalCents / 100)}
            </dd>
            <dt>Available balance</dt>
            <dd data-testid="bonus-balance">
              {balance ? formatDollars(balance.available) : 'reading…'}
            </dd>
            <dt>Left afterwards</dt>
            <dd>
              {totalCents !== null && availableCents !== null
                ? formatDollars((availableCents - totalCents) / 100)
                : '—'}
            </dd>
          </dl>
          {overBalance && (
            <p className="field-error">The total is more than the available balance.</p>
          )}
          <p className="note">
            Bonuses cannot be taken back. Each carries a token, so sending the same bonus again
            never pays twice.
          </p>
        </div>
      )}
      {outcome && outcome.failures.length > 0 && (
        <div className="error-box" role="alert" data-testid="mturk-action-failures">
          {plural(outcome.failures.length, 'failure')}:
          <ul>
            {outcome.failures.slice(0, 20).map((f, i) => (
              <li key={i}>
                <span className="mono">{f.assignmentId ?? f.workerId}</span>: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="error-message">
          <ErrorText {...errorParts(error)} />
        </div>
      )}
    </Modal>
  )
}

/** What a query-wide action will reach, in the counts main gave. */
function QueryTargetsNote({
  kind,
  who,
  counts,
  filter,
}: {
  kind: WorkerActionKind
  who: string
  counts: QueryTargetCounts
  filter: AnnotationFilter
}) {
  const workers = `${formatCount(counts.workers)} worker${counts.workers === 1 ? '' : 's'}`
  const sample = `${counts.sampleWorkers.join(', ')}${counts.workers > counts.sampleWorkers.length ? ', …' : ''}`
  const what =
    kind === 'bonus'
      ? `${who}: one per worker, on each worker’s latest assignment in the query`
      : kind === 'approve' || kind === 'reject'
        ? `${who} of ${workers}`
        : `${who}: ${sample}`
  return (
    <>
      {what}. Everything this query selects ({describeFilter(filter)}), not only the rows on screen.
    </>
  )
}

function textLabel(kind: WorkerActionKind): string {
  switch (kind) {
    case 'approve':
      return 'Feedback to the worker (optional)'
    case 'reject':
      return 'Feedback to the worker (required: they see why)'
    case 'bonus':
      return 'Reason (the worker sees it)'
    case 'notify':
      return 'Message'
    case 'block':
      return 'Reason (kept with the block; not shown to the worker)'
    default:
      return 'Reason (optional)'
  }
}
