import { useState } from 'react'
import type { TriageSettings } from '../../../../shared/contract/triage'
import { api } from '../../api'
import { showError } from '../messages/messages'

/** The thresholds of the flags and the queue's default share, saved with the project. */
export function TriageSettingsForm({
  settings,
  onSaved,
}: {
  settings: TriageSettings
  onSaved: (s: TriageSettings) => void
}) {
  const [draft, setDraft] = useState({
    queuePercent: String(settings.queueShare * 100),
    rushSeconds: String(settings.rushSeconds),
    rushMinimalPercent: String(settings.rushMinimalShare * 100),
    newWorkerDays: String(settings.newWorkerDays),
  })
  const field = (key: keyof typeof draft, label: string, title: string) => (
    <label className="field" title={title}>
      <span>{label}</span>
      <input
        type="number"
        min={0}
        value={draft[key]}
        data-testid={`setting-${key}`}
        onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
      />
    </label>
  )
  const save = () =>
    api.triage
      .saveSettings({
        queueShare: Number(draft.queuePercent) / 100,
        rushSeconds: Number(draft.rushSeconds),
        rushMinimalShare: Number(draft.rushMinimalPercent) / 100,
        newWorkerDays: Number(draft.newWorkerDays),
      })
      .then(onSaved)
      .catch((e: unknown) => showError('Saving the triage settings', e))

  return (
    <form
      className="triage-settings"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      {field(
        'queuePercent',
        'Queue share (%)',
        "Share of each worker's new submissions a queue samples",
      )}
      {field(
        'rushSeconds',
        'Rushing below (s)',
        'Median work time under this many seconds flags rushing',
      )}
      {field(
        'rushMinimalPercent',
        'or minimal ≥ (%)',
        'This share of submissions with ≤ 2 dimensions flags rushing',
      )}
      {field('newWorkerDays', 'New for (days)', 'A worker first seen within this many days is new')}
      <button type="submit">Save</button>
    </form>
  )
}
