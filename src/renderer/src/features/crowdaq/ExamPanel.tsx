import { useState } from 'react'
import type { ExamReport, ExamSummary, QualifyResult } from '../../../../shared/crowdaq/contract'
import type { Band, ExamSettings } from '../../../../shared/crowdaq/grading'
import type { MTurkPullResult } from '../../../../shared/contract/mturk'
import { api } from '../../api'
import { plural } from '../../lib/format'
import { whenFinished } from '../jobs/jobs'
import { showError, showInfo } from '../messages/messages'
import { AttemptSettingsFields } from './AttemptSettingsFields'
import { pct } from './percent'
import { largest } from '../../../../shared/lists'

/** An exam's settings and bands, its report, and applying its bands on MTurk. */
export function ExamPanel({ exam, onChanged }: { exam: ExamSummary; onChanged: () => void }) {
  const [settings, setSettings] = useState<ExamSettings>(exam.settings)
  const [report, setReport] = useState<ExamReport | null>(null)
  const [plan, setPlan] = useState<QualifyResult | null>(null)
  const [busy, setBusy] = useState(false)

  async function run<T>(what: string, work: () => Promise<T>, then: (v: T) => void) {
    setBusy(true)
    try {
      then(await work())
    } catch (e) {
      showError(what, e)
    } finally {
      setBusy(false)
    }
  }
  const setBand = (i: number, patch: Partial<Band>): void =>
    setSettings({
      ...settings,
      bands: settings.bands.map((b, k) => (k === i ? { ...b, ...patch } : b)),
    })
  const num = (v: string): number => (v.trim() === '' ? 0 : Number(v))

  return (
    <section className="cq-exam" data-testid="cq-exam">
      <form
        className="cq-settings"
        onSubmit={(e) => {
          e.preventDefault()
          void run(
            'Saving exam settings',
            () => api.crowdaq.saveSettings({ examId: exam.id, settings }),
            onChanged,
          )
        }}
      >
        <AttemptSettingsFields
          value={{ ...settings, passingPercent: Math.round(settings.passingGrade * 100) }}
          onChange={({ passingPercent, ...patch }) =>
            setSettings({
              ...settings,
              ...patch,
              ...(passingPercent !== undefined ? { passingGrade: passingPercent / 100 } : {}),
            })
          }
        />
        <table className="table compact">
          <thead>
            <tr>
              <th>Band</th>
              <th>From grade %</th>
              <th>MTurk qualification type</th>
              <th>Value (empty: grade × 100)</th>
            </tr>
          </thead>
          <tbody>
            {settings.bands.map((b, i) => (
              <tr key={i}>
                <td>{b.name}</td>
                <td>
                  <input
                    type="number"
                    min={0}
                    max={100}
                    value={Math.round(b.minGrade * 100)}
                    onChange={(e) => setBand(i, { minGrade: num(e.target.value) / 100 })}
                  />
                </td>
                <td>
                  <input
                    data-testid={`cq-band-type-${i}`}
                    value={b.qualificationTypeId ?? ''}
                    placeholder="none"
                    onChange={(e) =>
                      setBand(i, { qualificationTypeId: e.target.value.trim() || null })
                    }
                  />
                </td>
                <td>
                  <input
                    type="number"
                    value={b.value ?? ''}
                    onChange={(e) =>
                      setBand(i, { value: e.target.value === '' ? null : num(e.target.value) })
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit" data-testid="cq-save-settings" disabled={busy}>
          Save settings
        </button>
      </form>
      <p>
        <button
          data-testid="cq-report"
          disabled={busy}
          onClick={() =>
            void run(
              'Reading the exam report',
              () => api.crowdaq.report({ examId: exam.id }),
              setReport,
            )
          }
        >
          Grade and report
        </button>{' '}
        <button
          data-testid="cq-plan"
          disabled={busy}
          onClick={() =>
            void run(
              'Planning qualifications',
              () => api.crowdaq.planQualifications({ examId: exam.id }),
              setPlan,
            )
          }
        >
          Apply bands…
        </button>
      </p>
      <PullAttempts examId={exam.id} onPulled={onChanged} />
      {plan && (
        <div className="cq-plan" data-testid="cq-qualify-plan">
          <p>
            {plan.dryRun
              ? `${plural(plan.planned.filter((p) => !p.alreadySent).length, 'qualification')} to send, ${plan.skipped} already sent.`
              : `${plan.sent} sent, ${plan.skipped} already sent before, ${plan.failed} failed.`}
          </p>
          <ul>
            {plan.planned.map((p) => (
              <li key={`${p.workerId}-${p.qualificationTypeId}`}>
                <span className="mono">{p.workerId}</span> {p.band}: {p.qualificationTypeId} ={' '}
                {p.value}
                {p.alreadySent ? ' (already sent)' : ''}
              </li>
            ))}
          </ul>
          {plan.dryRun && (
            <button
              className="primary"
              data-testid="cq-qualify-confirm"
              disabled={busy}
              onClick={() => void run('Qualifying workers', () => qualify(exam.id), setPlan)}
            >
              Send on MTurk
            </button>
          )}
        </div>
      )}
      {report && <ReportView report={report} />}
    </section>
  )
}

/**
 * Applies the bands as a job (progress and Stop in the job list); its result, or what a stop or
 * failure left, as the plan shows it.
 */
async function qualify(examId: string): Promise<QualifyResult> {
  const { jobId } = await api.crowdaq.qualify({ examId })
  const job = await whenFinished(jobId)
  if (job.state === 'succeeded') return job.result as QualifyResult
  if (job.state === 'cancelled') showInfo(job.error?.message ?? 'Stopped.')
  else showError('Qualifying workers', job.error)
  // What was sent before the stop is recorded: the plan now says so.
  return api.crowdaq.planQualifications({ examId })
}

/**
 * Attempts from the exam's MTurk qualification HITs, through the project's pull: answers keyed by
 * question id. The pull runs as a job (progress and Cancel in the job list).
 */
function PullAttempts({ examId, onPulled }: { examId: string; onPulled: () => void }) {
  const [hitTypes, setHitTypes] = useState('')
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<string | null>(null)
  const ids = hitTypes.split(/[\s,]+/).filter((id) => id !== '')

  async function pull() {
    setBusy(true)
    setOutcome(null)
    try {
      const { jobId } = await api.mturk.pull({ mode: 'all', hitTypeIds: ids, examId })
      const job = await whenFinished(jobId)
      if (job.state === 'succeeded') {
        const r = job.result as MTurkPullResult
        setOutcome(
          `${plural(r.new, 'new attempt')} from ${plural(r.assignments, 'assignment')} of ${plural(r.hits, 'HIT')}.`,
        )
      } else if (job.state === 'cancelled') setOutcome('Cancelled; what was pulled is kept.')
      else showError('Pulling attempts from MTurk', job.error)
      onPulled()
    } catch (e) {
      showError('Pulling attempts from MTurk', e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      className="cq-pull"
      onSubmit={(e) => {
        e.preventDefault()
        void pull()
      }}
    >
      <label>
        Qualification HIT types (attempts from MTurk, answers keyed by question id)
        <input
          data-testid="cq-pull-hit-types"
          value={hitTypes}
          placeholder="HIT type id, …"
          onChange={(e) => setHitTypes(e.target.value)}
        />
      </label>{' '}
      <button type="submit" data-testid="cq-pull" disabled={busy || ids.length === 0}>
        Pull attempts
      </button>{' '}
      {outcome && (
        <span className="note" data-testid="cq-pull-outcome">
          {outcome}
        </span>
      )}
    </form>
  )
}

function ReportView({ report }: { report: ExamReport }) {
  const grades = Object.entries(report.grades).sort(([a], [b]) => Number(a) - Number(b))
  const most = largest(
    grades.map(([, n]) => n),
    1,
  )
  return (
    <div className="cq-report" data-testid="cq-report-view">
      <p>
        {plural(report.attempts, 'attempt')} by {plural(report.workers, 'worker')}.
        {report.untimed > 0 && (
          <span data-testid="cq-untimed">
            {' '}
            {report.untimed === report.attempts
              ? 'None of them carries a start time or deadline (an attempts CSV has none), so the time limit is not checked.'
              : `${report.untimed} of them carry no start time or deadline: the time limit is not checked for those.`}
          </span>
        )}
      </p>
      <div className="cq-histogram" aria-label="Grades">
        {grades.map(([g, n]) => (
          <div key={g} className="cq-bar" title={`${g}%: ${n}`}>
            <span style={{ height: `${(n / most) * 60}px` }} />
            {g}%
          </div>
        ))}
      </div>
      <table className="table compact" data-testid="cq-questions-report">
        <thead>
          <tr>
            <th>Question</th>
            <th>Shown</th>
            <th>Correct</th>
            <th>Options chosen</th>
            <th>Discrimination</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {report.questions.map((q) => (
            <tr key={q.questionId}>
              <td className="mono">{q.questionId}</td>
              <td>{q.shown}</td>
              <td>{pct(q.shareCorrect)}</td>
              <td>
                {Object.entries(q.responses)
                  .map(([k, n]) => `${k}${k === q.answer ? '✓' : ''} ${n}`)
                  .join(' · ')}
              </td>
              <td>{q.discrimination === null ? '–' : q.discrimination.toFixed(2)}</td>
              <td>{q.revise ? 'revise' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="table compact" data-testid="cq-workers-report">
        <thead>
          <tr>
            <th>Worker</th>
            <th>Attempts</th>
            <th>Grades</th>
            <th>Band</th>
            <th>Main-task annotations by rating</th>
          </tr>
        </thead>
        <tbody>
          {report.workerRows.map((w) => (
            <tr key={w.workerId}>
              <td className="mono">{w.workerId}</td>
              <td>{w.attempts}</td>
              <td>
                {w.grades
                  .map((g, i) => {
                    const flags = w.flags[i] ?? []
                    return flags.length > 0 ? `${pct(g)} (${flags.join(', ')})` : pct(g)
                  })
                  .join(', ')}
              </td>
              <td>{w.band ?? '–'}</td>
              <td>
                {w.annotations === 0
                  ? '–'
                  : Object.entries(w.quality)
                      .map(([k, s]) => `${k}: ${pct(s)}`)
                      .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
