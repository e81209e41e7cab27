import { useEffect, useState } from 'react'
import type {
  WorkerActionEntry,
  WorkerActionKind,
  WorkerAssignment,
} from '../../../../shared/contract/mturk'
import { api } from '../../api'
import { formatDay, formatMoment, plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { ActionDialog, type ActionTargets } from './ActionDialog'
import { actionsVersion, formatDollars, formatDuration } from './mturkState'
import './mturk.css'

/**
 * The worker's MTurk side in the worker panel: their pulled assignments, actions on them (approve,
 * reject, bonus, message, qualify, disqualify, block, unblock), and every action recorded.
 */
export function WorkerMTurk({ workerId }: { workerId: string }) {
  const { dataVersion } = useStore(projectState)
  const version = useStore(actionsVersion)
  const [assignments, setAssignments] = useState<WorkerAssignment[] | null>(null)
  const [records, setRecords] = useState<WorkerActionEntry[] | null>(null)
  const [bonusOn, setBonusOn] = useState('')
  const [acting, setActing] = useState<{ kind: WorkerActionKind; targets: ActionTargets } | null>(
    null,
  )

  useEffect(() => {
    let live = true
    Promise.all([api.mturk.workerAssignments({ workerId }), api.mturk.workerActions({ workerId })])
      .then(([a, r]) => {
        if (!live) return
        setAssignments(a)
        setRecords(r)
      })
      .catch((e: unknown) => live && showError(`Reading MTurk records of ${workerId}`, e))
    return () => {
      live = false
    }
  }, [workerId, dataVersion, version])

  const submitted = assignments?.filter((a) => a.status === 'Submitted') ?? []
  const bonusAssignment = assignments?.find((a) => a.assignmentId === bonusOn) ?? assignments?.[0]
  const act = (kind: WorkerActionKind, list: readonly WorkerAssignment[] = []) =>
    setActing({
      kind,
      targets: {
        workers: [workerId],
        assignments: list.map((a) => ({ assignmentId: a.assignmentId, workerId })),
      },
    })

  return (
    <div className="worker-mturk" data-testid="worker-actions">
      <h4 className="section-title">Mechanical Turk</h4>
      <div className="panel-actions">
        <button
          className="small"
          data-testid="worker-approve"
          disabled={submitted.length === 0}
          onClick={() => act('approve', submitted)}
        >
          Approve {submitted.length ? `${submitted.length} submitted` : ''}
        </button>
        <button
          className="small"
          data-testid="worker-reject"
          disabled={submitted.length === 0}
          onClick={() => act('reject', submitted)}
        >
          Reject…
        </button>
        <button
          className="small"
          data-testid="worker-bonus"
          disabled={!bonusAssignment}
          title={
            bonusAssignment
              ? `Pays on assignment ${bonusAssignment.assignmentId}`
              : 'No pulled assignment to pay a bonus on'
          }
          onClick={() => bonusAssignment && act('bonus', [bonusAssignment])}
        >
          Bonus…
        </button>
        <button className="small" data-testid="worker-notify" onClick={() => act('notify')}>
          Message…
        </button>
        <button className="small" data-testid="worker-qualify" onClick={() => act('qualify')}>
          Qualify…
        </button>
        <button className="small" data-testid="worker-disqualify" onClick={() => act('disqualify')}>
          Disqualify…
        </button>
        <button className="small" data-testid="worker-block" onClick={() => act('block')}>
          Block…
        </button>
        <button className="small" data-testid="worker-unblock" onClick={() => act('unblock')}>
          Unblock
        </button>
      </div>
      {assignments && assignments.length === 0 && (
        <p className="note">No assignments of this worker were pulled from MTurk.</p>
      )}
      {assignments && assignments.length > 0 && (
        <table className="table compact" data-testid="worker-assignments">
          <thead>
            <tr>
              <th title="The assignment a bonus is paid on">Bonus on</th>
              <th>Assignment</th>
              <th>Status</th>
              <th>Submitted</th>
              <th>Work time</th>
              <th className="num">Bonus paid</th>
            </tr>
          </thead>
          <tbody>
            {assignments.map((a) => (
              <tr key={a.assignmentId} title={a.hitTitle}>
                <td>
                  <input
                    type="radio"
                    name={`bonus-on-${workerId}`}
                    aria-label={`Pay a bonus on ${a.assignmentId}`}
                    checked={a.assignmentId === bonusAssignment?.assignmentId}
                    onChange={() => setBonusOn(a.assignmentId)}
                  />
                </td>
                <td className="mono">…{a.assignmentId.slice(-8)}</td>
                <td>{a.status}</td>
                <td>{formatDay(a.submittedAt)}</td>
                <td>{formatDuration(a.workSeconds)}</td>
                <td className="num">{Number(a.bonusPaid) > 0 ? formatDollars(a.bonusPaid) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4 className="section-title">Actions recorded</h4>
      {records && records.length === 0 && (
        <p className="note">Nothing sent to MTurk about this worker yet.</p>
      )}
      {records && records.length > 0 && (
        <table className="table compact" data-testid="worker-action-records">
          <thead>
            <tr>
              <th>When</th>
              <th>Action</th>
              <th>Sent</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={r.id} data-testid="worker-action-record" data-action={r.action}>
                <td>{formatMoment(r.at)}</td>
                <td>{r.action}</td>
                <td className="action-detail" title={JSON.stringify(r.request, null, 2)}>
                  {summarize(r)}
                </td>
                <td
                  className={`action-result ${r.error || r.failure ? 'action-failed' : ''}`}
                  title={resultTitle(r)}
                >
                  {r.error
                    ? `failed: ${r.error.code ?? r.error.name}`
                    : r.failure
                      ? `failed: ${r.failure}`
                      : r.note || 'done'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {acting && (
        <ActionDialog kind={acting.kind} targets={acting.targets} onClose={() => setActing(null)} />
      )}
    </div>
  )
}

/** The part of the request a reviewer recognises: amount and reason, feedback, subject, value. */
function summarize(r: WorkerActionEntry): string {
  const q = (r.request ?? {}) as Record<string, unknown>
  const s = (k: string): string =>
    typeof q[k] === 'string' || typeof q[k] === 'number' ? String(q[k]) : ''
  switch (r.action) {
    case 'bonus':
      return `${formatDollars(s('BonusAmount'))} — ${s('Reason')}`
    case 'notify':
      return `${s('Subject')} (${plural(r.workers, 'worker')})`
    case 'qualify':
      return `${s('QualificationTypeId')} = ${s('IntegerValue')}`
    case 'disqualify':
      return `${s('QualificationTypeId')}${s('Reason') ? ` — ${s('Reason')}` : ''}`
    case 'approve':
    case 'reject':
      return `${s('AssignmentId')}${s('RequesterFeedback') ? ` — ${s('RequesterFeedback')}` : ''}`
    default:
      return s('Reason')
  }
}

function resultTitle(r: WorkerActionEntry): string {
  const answer = r.error ? r.error.message : JSON.stringify(r.response)
  return `${answer}${r.requestId ? `\nrequest ${r.requestId}` : ''}${r.changeSet ? `\nchange set ${r.changeSet}` : ''}`
}
