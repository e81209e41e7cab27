import { useEffect, useState } from 'react'
import type { MTurkHitRow } from '../../../../shared/contract/mturk'
import { api } from '../../api'
import { formatCount, formatDay, formatMoment, plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'

const SHOWN = 200

/**
 * The HITs the project knows, newest first, with disposal called out: 120 days after creation the
 * service forgets a HIT and its work, so HITs within 10 days of it are flagged for pulling.
 */
export function HitsSection({ onPullType }: { onPullType: (hitTypeId: string) => void }) {
  const { dataVersion } = useStore(projectState)
  const [hits, setHits] = useState<MTurkHitRow[] | null>(null)
  const [refreshing, setRefreshing] = useState(false)

  useEffect(() => {
    let live = true
    api.mturk
      .hits({})
      .then((h) => live && setHits(h))
      .catch((e: unknown) => live && showError('Reading the HITs', e))
    return () => {
      live = false
    }
  }, [dataVersion])

  async function refresh() {
    setRefreshing(true)
    try {
      setHits(await api.mturk.hits({ refresh: true }))
    } catch (e) {
      showError('Listing HITs on MTurk', e)
    } finally {
      setRefreshing(false)
    }
  }

  const near = hits?.filter((h) => h.nearDisposal) ?? []
  return (
    <section className="mturk-section" aria-label="HITs">
      <h3 className="mturk-heading">
        HITs{' '}
        {hits && <span className="badge">{formatCount(hits.filter((h) => !h.gone).length)}</span>}
        <button
          className="small"
          data-testid="mturk-hits-refresh"
          disabled={refreshing}
          onClick={() => void refresh()}
        >
          {refreshing ? 'Listing…' : 'List from MTurk'}
        </button>
      </h3>
      {near.length > 0 && (
        <p className="mturk-warning" role="alert" data-testid="mturk-disposal-warning">
          {plural(near.length, 'HIT')} {near.length === 1 ? 'is' : 'are'} within 10 days of
          disposal: MTurk deletes their work 120 days after creation. Pull them now.
        </p>
      )}
      {hits && hits.length === 0 && (
        <p className="note">No HITs yet: list them from MTurk, or pull.</p>
      )}
      {hits && hits.length > 0 && (
        <div className="mturk-table-wrap">
          <table className="table compact" data-testid="mturk-hits">
            <thead>
              <tr>
                <th>Title</th>
                <th>HIT type</th>
                <th>Created</th>
                <th>Disposal</th>
                <th className="num">Submitted</th>
                <th className="num">Approved</th>
                <th className="num">Rejected</th>
                <th>Last pulled</th>
              </tr>
            </thead>
            <tbody>
              {hits.slice(0, SHOWN).map((h) => (
                <tr
                  key={h.hitId}
                  data-testid="mturk-hit"
                  className={h.gone ? 'is-retracted' : undefined}
                >
                  <td title={h.hitId}>{h.title}</td>
                  <td>
                    <button
                      className="link mono"
                      title="Pull this HIT type"
                      onClick={() => onPullType(h.hitTypeId)}
                    >
                      {h.hitTypeId.length > 12 ? `…${h.hitTypeId.slice(-10)}` : h.hitTypeId}
                    </button>
                  </td>
                  <td>{formatDay(h.createdAt)}</td>
                  <td>
                    {h.gone ? (
                      <span className="badge">gone</span>
                    ) : h.nearDisposal ? (
                      <span className="badge badge-danger" data-testid="mturk-near-disposal">
                        {h.daysToDisposal !== null && h.daysToDisposal <= 0
                          ? 'today'
                          : `in ${plural(h.daysToDisposal ?? 0, 'day')}`}
                      </span>
                    ) : (
                      formatDay(h.disposalAt)
                    )}
                  </td>
                  <td className="num">{formatCount(h.pulled.Submitted)}</td>
                  <td className="num">{formatCount(h.pulled.Approved)}</td>
                  <td className="num">{formatCount(h.pulled.Rejected)}</td>
                  <td>{h.pulledAt ? formatMoment(h.pulledAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {hits.length > SHOWN && (
            <p className="note">
              Showing the newest {SHOWN} of {formatCount(hits.length)}.
            </p>
          )}
        </div>
      )}
    </section>
  )
}
