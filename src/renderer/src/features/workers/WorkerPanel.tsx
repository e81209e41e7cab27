import { useEffect, useState } from 'react'
import type { WorkerTimeline } from '../../../../shared/contract/ratings'
import type { WorkerPanel as WorkerPanelData } from '../../../../shared/contract/review'
import { api } from '../../api'
import { formatCount, formatDay } from '../../lib/format'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { RatingBadge } from '../ratings/RatingBadge'
import { RateWorkerDialog } from '../ratings/RateWorkerDialog'
import { ratingScale } from '../ratings/scale'
import { PanelHead } from '../shell/PanelHead'
import { setFilter, useWorkspace } from '../grid/workspaceModel'
import { WorkerMTurk } from '../mturk/WorkerMTurk'
import { DimensionProfile } from './DimensionProfile'
import { RatingTimeline } from './RatingTimeline'

/**
 * Ratings address a worker by the project's row id, the review calls by the id the files use.
 * `review.worker` does not return the row id yet; until it does, timeline and rating stay off.
 */
function workerRowId(panel: WorkerPanelData): number | null {
  const id = (panel as WorkerPanelData & { id?: unknown }).id
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null
}

/** Everything about one worker: volume, dimension profile against the crowd, ratings over time. */
export function WorkerPanel({ workerId, onClose }: { workerId: string; onClose: () => void }) {
  const model = useWorkspace()
  const { dataVersion } = useStore(projectState)
  const scale = useStore(ratingScale)
  const [panel, setPanel] = useState<WorkerPanelData | null>(null)
  const [timeline, setTimeline] = useState<WorkerTimeline | null>(null)
  const [rating, setRating] = useState(false)

  useEffect(() => {
    let live = true
    api.review
      .worker({ workerId })
      .then((p) => {
        if (!live) return
        setPanel(p)
        const id = workerRowId(p)
        if (id === null) return setTimeline(null)
        return api.ratings.workerTimeline({ workerId: id }).then((t) => live && setTimeline(t))
      })
      .catch((e: unknown) => live && showError(`Reading worker ${workerId}`, e))
    return () => {
      live = false
    }
  }, [workerId, dataVersion])

  const current = panel?.workerId === workerId ? panel : null
  const rowId = current ? workerRowId(current) : null

  return (
    <section
      className="side-panel worker-panel"
      data-testid="worker-panel"
      data-worker={workerId}
      aria-label={`Worker ${workerId}`}
    >
      <PanelHead title={`Worker ${workerId}`} onClose={onClose} />
      {!current && <p className="side-body note">Loading…</p>}
      {current && (
        <div className="side-body">
          <div className="panel-actions">
            <button
              className="primary small"
              data-testid="worker-filter"
              onClick={() => setFilter(model, { workers: [workerId] })}
            >
              Show only this worker in the grid
            </button>
            <button
              className="small"
              data-testid="worker-rate"
              disabled={rowId === null}
              title={
                rowId === null
                  ? 'Waiting for the worker’s project id from review.worker'
                  : 'Rate this worker from a commit date'
              }
              onClick={() => setRating(true)}
            >
              Rate worker…
            </button>
          </div>
          <dl className="stats" data-testid="worker-stats">
            <Stat label="Submissions" value={formatCount(current.submissions)} />
            <Stat label="Annotations" value={formatCount(current.annotations)} />
            <Stat label="Dimensions per submission" value={current.averageDimensions.toFixed(2)} />
            <Stat label="First submission" value={formatDay(current.firstSubmittedAt) || '—'} />
            <Stat label="Last submission" value={formatDay(current.lastSubmittedAt) || '—'} />
          </dl>

          <h4 className="section-title">Dimension profile</h4>
          <DimensionProfile profile={current.dimensionProfile} />

          <h4 className="section-title">Rating timeline</h4>
          {timeline ? (
            <RatingTimeline timeline={timeline} scale={scale} />
          ) : (
            <p className="note">
              {rowId === null
                ? 'The timeline needs the worker’s project id (not given yet).'
                : 'Loading…'}
            </p>
          )}

          <h4 className="section-title">Annotations by effective rating</h4>
          <RatingBars ratings={current.ratings} total={current.annotations} />

          {current.fileRatings.length > 0 && (
            <>
              <h4 className="section-title">Ratings in imported files</h4>
              <table className="table compact">
                <thead>
                  <tr>
                    <th>Rating</th>
                    <th className="num">Submissions</th>
                    <th>From</th>
                    <th>To</th>
                  </tr>
                </thead>
                <tbody>
                  {current.fileRatings.map((f, i) => (
                    <tr key={i}>
                      <td>
                        <RatingBadge value={f.rating} />
                      </td>
                      <td className="num">{formatCount(f.submissions)}</td>
                      <td>{formatDay(f.first)}</td>
                      <td>{formatDay(f.last)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {timeline && timeline.ratings.length > 0 && (
            <>
              <h4 className="section-title">Worker ratings recorded</h4>
              <table className="table compact" data-testid="worker-ratings">
                <thead>
                  <tr>
                    <th>Commit date</th>
                    <th>Rating</th>
                    <th>Note</th>
                  </tr>
                </thead>
                <tbody>
                  {timeline.ratings.map((r) => (
                    <tr key={r.id} className={r.retracted ? 'is-retracted' : undefined}>
                      <td>{r.commitDate}</td>
                      <td>
                        <RatingBadge value={r.value} />
                      </td>
                      <td className="note">
                        {r.retracted ? 'reverted · ' : ''}
                        {r.note}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <WorkerMTurk workerId={workerId} />
        </div>
      )}
      {rating && rowId !== null && (
        <RateWorkerDialog
          worker={{ id: rowId, externalId: workerId }}
          onClose={() => setRating(false)}
        />
      )}
    </section>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

function RatingBars({
  ratings,
  total,
}: {
  ratings: ReadonlyArray<{ rating: number | null; annotations: number }>
  total: number
}) {
  const scale = useStore(ratingScale)
  if (ratings.length === 0) return <p className="note">No annotations.</p>
  return (
    <div className="rating-bars">
      {ratings.map((r) => {
        const color = scale.find((l) => l.value === r.rating)?.color ?? '#c9ced6'
        const share = total > 0 ? r.annotations / total : 0
        return (
          <div key={String(r.rating)} className="rating-bar-row">
            <RatingBadge value={r.rating} />
            <div className="rating-bar-track">
              <div
                className="rating-bar-fill"
                style={{ width: `${share * 100}%`, background: color }}
              />
            </div>
            <span className="num">{formatCount(r.annotations)}</span>
          </div>
        )
      })}
    </div>
  )
}
