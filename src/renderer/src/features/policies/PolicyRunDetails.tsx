import { useState } from 'react'
import type { PolicyRunDetail } from '../../../../shared/contract/policies'
import { api } from '../../api'
import { formatCount } from '../../lib/format'
import { showError } from '../messages/messages'
import { goToPage } from '../shell/navigation'
import { paramText } from './ParamForm'
import { policyState } from './policyState'

/** Puts a past run's script and parameters back on the Policies page, to read or run again. */
function openInPolicies(run: PolicyRunDetail): void {
  policyState.fileName.set(run.fileName)
  policyState.path.set('')
  policyState.watch.set(false)
  policyState.source.set(run.script)
  policyState.values.set(
    Object.fromEntries(
      Object.entries(run.params).map(([name, v]) => [
        name,
        typeof v === 'boolean' ? v : paramText(v),
      ]),
    ),
  )
  policyState.report.set(null)
  policyState.applied.set(null)
  goToPage('policies')
}

/**
 * What a policy change set was made from, read when opened: the file, the script's SHA-256, the
 * parameters, what each rule moved, and the script itself.
 */
export function PolicyRunDetails({ changeSetId }: { changeSetId: number }) {
  const [run, setRun] = useState<PolicyRunDetail | null>(null)

  function load(open: boolean) {
    if (!open || run !== null) return
    api.policies
      .run({ changeSetId })
      .then(setRun)
      .catch((e: unknown) => showError('Reading the policy run', e))
  }

  return (
    <details data-testid="history-policy" onToggle={(e) => load(e.currentTarget.open)}>
      <summary>Policy run</summary>
      {run === null ? (
        <p className="note">Loading…</p>
      ) : (
        <div className="policy-run" data-testid="policy-run">
          <dl className="policy-run-facts">
            <dt>Policy</dt>
            <dd>{run.name}</dd>
            <dt>File</dt>
            <dd>{run.fileName}</dd>
            <dt>SHA-256</dt>
            <dd>
              <code data-testid="policy-run-sha">{run.sha256}</code>
            </dd>
            {Object.entries(run.params).map(([name, value]) => (
              <div key={name} className="policy-run-param">
                <dt>{name}</dt>
                <dd>{paramText(value) || '—'}</dd>
              </div>
            ))}
          </dl>
          <ol className="policy-run-rules">
            {run.report.rules.map((r, i) => (
              <li key={i}>
                {r.name}: <span className="note">{formatCount(r.annotations)} moved</span>
              </li>
            ))}
          </ol>
          <details>
            <summary>Script</summary>
            <pre className="policy-run-script" data-testid="policy-run-script">
              {run.script}
            </pre>
          </details>
          <button
            className="small"
            data-testid="policy-run-open"
            onClick={() => openInPolicies(run)}
            title="Open this script and its parameters on the Policies page"
          >
            Open in Policies
          </button>
        </div>
      )}
    </details>
  )
}
