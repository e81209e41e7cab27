import { useState } from 'react'
import type { QualificationTypeRow } from '../../../../shared/contract/mturk'
import { api } from '../../api'
import { formatCount } from '../../lib/format'
import { showError } from '../messages/messages'

/** The account's own qualification types and how many workers hold each (one listing per type). */
export function QualificationsSection() {
  const [types, setTypes] = useState<QualificationTypeRow[] | null>(null)
  const [busy, setBusy] = useState(false)

  async function count() {
    setBusy(true)
    try {
      setTypes(await api.mturk.qualificationTypes({ counts: true }))
    } catch (e) {
      showError('Counting qualified workers', e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="mturk-section" aria-label="Qualifications">
      <h3 className="mturk-heading">
        Qualification types
        <button
          className="small"
          data-testid="mturk-count-qualified"
          disabled={busy}
          onClick={() => void count()}
        >
          {busy ? 'Counting…' : types ? 'Count again' : 'Count workers per type'}
        </button>
      </h3>
      {types && types.length === 0 && (
        <p className="note">This account owns no qualification types.</p>
      )}
      {types && types.length > 0 && (
        <table className="table compact" data-testid="mturk-qualifications">
          <thead>
            <tr>
              <th>Name</th>
              <th>Id</th>
              <th>Status</th>
              <th className="num">Workers</th>
            </tr>
          </thead>
          <tbody>
            {types.map((t) => (
              <tr key={t.id} title={t.description}>
                <td>{t.name}</td>
                <td className="mono">{t.id}</td>
                <td>{t.status}</td>
                <td className="num">{t.count === null ? '—' : formatCount(t.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
