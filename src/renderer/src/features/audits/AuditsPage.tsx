import { useCallback, useEffect, useState } from 'react'
import type {
  AuditDetail,
  AuditDrawInput,
  AuditResult,
  AuditVerdict,
} from '../../../../shared/contract/audits'
import { api } from '../../api'
import { formatMoment } from '../../lib/format'
import { attempt, showError } from '../messages/messages'
import { ratingsVersion } from '../ratings/ratingState'
import { describeInterval } from './auditState'
import { AuditView } from './AuditView'
import { NewAudit } from './NewAudit'
import './audits.css'

/** Spot-check audits: draw a seeded sample, judge it with the keyboard, read its interval. */
export function AuditsPage() {
  const [audits, setAudits] = useState<AuditResult[]>([])
  const [detail, setDetail] = useState<AuditDetail | null>(null)

  const refresh = useCallback(() => {
    void attempt('Reading the audits', () => api.audits.list({})).then((list) => {
      if (list) setAudits(list)
    })
  }, [])
  useEffect(refresh, [refresh])

  // Undo and redo may take a verdict back (or judge it again): read the audit shown afresh.
  const shownId = detail?.result.id
  useEffect(() => {
    if (shownId === undefined) return
    return ratingsVersion.subscribe(() => {
      refresh()
      api.audits
        .get({ auditId: shownId })
        .then(setDetail)
        .catch((e: unknown) => showError('Opening the audit', e))
    })
  }, [shownId, refresh])

  const show = (next: AuditDetail | null) => {
    if (!next) return
    setDetail(next)
    setAudits((list) => {
      const rest = list.filter((a) => a.id !== next.result.id)
      return [next.result, ...rest].sort((a, b) => b.id - a.id)
    })
  }

  const open = (auditId: number) =>
    attempt('Opening the audit', () => api.audits.get({ auditId })).then((d) => {
      if (d) setDetail(d)
    })

  const draw = (input: AuditDrawInput) =>
    attempt('Drawing the audit', () => api.audits.draw(input)).then(show)

  const judge = async (annotationId: number, verdict: AuditVerdict | null) => {
    if (!detail) return null
    const auditId = detail.result.id
    const next = await attempt('Recording the verdict', () =>
      api.audits.judge({ auditId, annotationId, verdict }),
    )
    show(next)
    return next
  }

  const drawMore = (n: number) => {
    if (!detail) return
    const auditId = detail.result.id
    void attempt('Drawing more items', () => api.audits.drawMore({ auditId, n })).then(show)
  }

  return (
    <div className="audits" data-testid="audits">
      <aside className="audits-side">
        <NewAudit onDraw={(input) => void draw(input)} />
        <h2>Audits</h2>
        {audits.length === 0 && <p className="note">No audits yet.</p>}
        <ul className="audit-list" data-testid="audit-list">
          {audits.map((a) => (
            <li key={a.id}>
              <button
                className={`audit-list-item${detail?.result.id === a.id ? ' selected' : ''}`}
                onClick={() => void open(a.id)}
              >
                <span className="audit-list-name">{a.name}</span>
                <span className="note">
                  {a.judged} of {a.sample} judged · {describeInterval(a)}
                </span>
                <span className="note">{formatMoment(a.createdAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <div className="audits-main">
        {detail ? (
          <AuditView key={detail.result.id} detail={detail} onJudge={judge} onDrawMore={drawMore} />
        ) : (
          <div className="empty-state">Draw a sample or open an audit to judge it.</div>
        )}
      </div>
    </div>
  )
}
