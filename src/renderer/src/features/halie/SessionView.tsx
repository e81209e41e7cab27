import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { LogEvent } from '../../../../shared/halie/logEvents'
import { parseLogLine } from '../../../../shared/halie/logEvents'
import type { SessionDetail } from '../../../../shared/halie/sessions'
import { staticBlocks } from '../../../../shared/halie/staticView'
import { api } from '../../api'
import { showError } from '../messages/messages'
import { useStore } from '../../lib/store'
import { RateWorkerDialog } from '../ratings/RateWorkerDialog'
import { RatingBadge } from '../ratings/RatingBadge'
import { ratingsVersion } from '../ratings/ratingState'
import { ratingScale } from '../ratings/scale'
import { keyedLevels, ratingText } from '../ratings/scaleMath'
import { rateHalie, ratingOfKey } from './rateHalie'
import { ReplayView } from './ReplayView'

type Tab = 'replay' | 'blocks' | 'tables'

/** One session: its figures and survey answers, then its replay, its blocks or its tables. */
export function SessionView({ id, onBack }: { id: number; onBack: () => void }) {
  const [detail, setDetail] = useState<SessionDetail | null>(null)
  const [events, setEvents] = useState<LogEvent[] | null>(null)
  const [tab, setTab] = useState<Tab>('blocks')
  const [ratingWorker, setRatingWorker] = useState(false)
  // Set once the session and its log are read; the page then takes the keys from the grid.
  const takeFocus = useRef(false)
  const page = useRef<HTMLDivElement>(null)
  const scale = useStore(ratingScale)
  const version = useStore(ratingsVersion)

  // Ratings change without the log: re-read the session alone.
  useEffect(() => {
    if (version === 0) return
    let live = true
    api.halie
      .session({ id })
      .then((d) => live && setDetail(d))
      .catch((e: unknown) => showError('Reading the session', e))
    return () => {
      live = false
    }
  }, [id, version])

  useEffect(() => {
    let live = true
    Promise.all([api.halie.session({ id }), api.halie.log({ id })])
      .then(([d, lines]) => {
        if (!live) return
        setDetail(d)
        setEvents(lines.map((l, i) => parseLogLine(l, i)))
        setTab(lines.length > 0 ? 'replay' : 'blocks')
        takeFocus.current = true
      })
      .catch((e: unknown) => showError('Opening the session', e))
    return () => {
      live = false
    }
  }, [id])

  // The page takes the keys from the grid it replaces (digits rate this session), once it is
  // drawn with its ref: focusing from the read itself could run before React has drawn it.
  useEffect(() => {
    if (!takeFocus.current || !page.current) return
    takeFocus.current = false
    page.current.focus()
  }, [detail, events])

  const blockRows = detail?.tables.find((t) => t.kind === 'event_blocks')?.rows ?? []
  const blocks = useMemo(() => {
    const table = detail?.tables.find((t) => t.kind === 'event_blocks')
    return detail && table
      ? staticBlocks(
          detail.row.task,
          table.header,
          table.rows.map((r) => r.cells),
        )
      : []
  }, [detail])

  const sessionId = detail?.row.id
  // Digits rate the session, as in the review grid (the page's other keys are the replay's);
  // typing in a field, and a dialog open over the page, are left alone.
  useLayoutEffect(() => {
    if (sessionId === undefined || ratingWorker) return
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return
      // The grid behind the page rates its own focused row; a field or a dialog keeps its keys.
      if (target?.closest('input, select, textarea, [role="dialog"], .ag-root-wrapper')) return
      const value = ratingOfKey(scale, e.key)
      if (value === undefined) return
      e.preventDefault()
      void rateHalie({ kind: 'sessions', ids: [sessionId] }, value, scale)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [sessionId, scale, ratingWorker])

  if (!detail) return <div className="halie-session" />
  const { row } = detail
  const tabs: { id: Tab; label: string }[] = [
    ...(events && events.length > 0 ? [{ id: 'replay' as const, label: 'Replay' }] : []),
    { id: 'blocks', label: 'Event blocks' },
    { id: 'tables', label: 'Tables' },
  ]
  const rateSession = (value: number | null): void => {
    void rateHalie({ kind: 'sessions', ids: [row.id] }, value, scale)
  }
  return (
    <div className="halie-session" data-testid="halie-session" tabIndex={-1} ref={page}>
      <header className="halie-session-head">
        <button className="small" data-testid="halie-back" onClick={onBack}>
          ← Sessions
        </button>
        <h3 data-testid="halie-session-id">
          {row.task} · {row.session}
        </h3>
        <span className="note">
          worker {row.worker ?? '—'} · {row.model ?? '—'} · prompt {row.prompt ?? '—'}
        </span>
        <span className="halie-rating" data-testid="halie-session-rating">
          <RatingBadge value={row.rating} source={row.ratingSource ?? 'none'} />
        </span>
        <span className="rate-keys" aria-label="Rate this session">
          {keyedLevels(scale).map(({ key, level }) => (
            <button
              key={key}
              className="small rate-key"
              title={`Rate this session ${ratingText(level.value, scale)} (key ${key})`}
              data-testid="halie-rate-session"
              onClick={() => rateSession(level.value)}
            >
              <kbd>{key}</kbd>
              <RatingBadge value={level.value} />
            </button>
          ))}
          {row.ratingSource === 'item' && (
            <button
              className="small"
              data-testid="halie-clear-session"
              onClick={() => rateSession(null)}
            >
              Clear
            </button>
          )}
        </span>
        {row.workerId !== null && row.worker !== null && (
          <button
            className="small"
            data-testid="halie-rate-worker"
            onClick={() => setRatingWorker(true)}
          >
            Rate worker…
          </button>
        )}
      </header>
      {ratingWorker && row.workerId !== null && (
        <RateWorkerDialog
          worker={{ id: row.workerId, externalId: row.worker ?? '' }}
          onClose={() => setRatingWorker(false)}
        />
      )}
      <dl className="halie-figures" data-testid="halie-figures">
        <dt>Blocks</dt>
        <dd>{row.blocks}</dd>
        <dt>Queries</dt>
        <dd>{row.queries}</dd>
        <dt>Minutes</dt>
        <dd>{row.elapsedMinutes?.toFixed(2) ?? '—'}</dd>
        <dt>Accuracy</dt>
        <dd>{row.accuracy?.toFixed(3) ?? '—'}</dd>
        <dt>Log events</dt>
        <dd>{row.events || '—'}</dd>
        {Object.entries(row.scores).map(([name, value]) => (
          <span key={name} className="halie-score">
            <dt>{name}</dt>
            <dd>{Number.isInteger(value) ? value : value.toFixed(2)}</dd>
          </span>
        ))}
      </dl>
      <nav className="halie-tabs">
        {tabs.map((t) => (
          <button
            key={t.id}
            className={`small ${tab === t.id ? 'is-active' : ''}`}
            data-testid={`halie-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </nav>
      {tab === 'replay' && events && events.length > 0 && <ReplayView events={events} />}
      {tab === 'blocks' && (
        <ol className="halie-blocks" data-testid="halie-blocks">
          {blocks.map((b, i) => {
            const block = blockRows[i]
            return (
              <li key={i} data-testid="halie-block">
                <h4>{b.title}</h4>
                {block && (
                  <label className="halie-block-rating">
                    Rating{' '}
                    <select
                      aria-label={`Rating of block ${i + 1}`}
                      data-testid="halie-block-rating"
                      value={block.rating === null ? '' : String(block.rating)}
                      onChange={(e) =>
                        void rateHalie(
                          { kind: 'blocks', ids: [block.id] },
                          e.target.value === '' ? null : Number(e.target.value),
                          scale,
                        )
                      }
                    >
                      <option value="">as the session ({ratingText(row.rating, scale)})</option>
                      {scale.map((level) => (
                        <option key={level.value} value={String(level.value)}>
                          {ratingText(level.value, scale)}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
                {b.exchanges.map((x, j) => (
                  <div key={j} className="halie-exchange">
                    <p className="by-U">{x.query}</p>
                    <p className="by-A">{x.answer}</p>
                  </div>
                ))}
                {b.note && <p className="note">{b.note}</p>}
              </li>
            )
          })}
        </ol>
      )}
      {tab === 'tables' && (
        <div className="halie-tables" data-testid="halie-tables">
          {detail.tables.map((t) => (
            <section key={t.kind}>
              <h4>{t.kind.replace('_', ' ')}</h4>
              <div className="halie-table-scroll">
                <table>
                  <thead>
                    <tr>
                      <th>line</th>
                      {t.header.map((h) => (
                        <th key={h}>{h}</th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {t.rows.map((r) => (
                      <tr key={r.line}>
                        <td>{r.line}</td>
                        {r.cells.map((c, i) => (
                          <td key={i}>{c}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ))}
          {detail.metadata && (
            <section>
              <h4>Session metadata</h4>
              <pre>{detail.metadata}</pre>
            </section>
          )}
        </div>
      )}
    </div>
  )
}
