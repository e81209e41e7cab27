import { useEffect, useRef, useState } from 'react'
import type { WorkerDimensionMap } from '../../../../shared/contract/dashboard'
import { api } from '../../api'
import { formatCount, plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { textOn } from '../ratings/scaleMath'
import { showInReview } from '../shell/navigation'
import { ChartCard, type ImageFormat } from './Chart'
import { saveFigure } from './download'
import { heatMapSvg } from './heatMapSvg'
import { cellColor, COLOUR_KEY, KEY_CAPTION, ratioText } from './heatColours'
import { figureSvg } from './figure'

const TITLE = 'Worker × dimension'
/** Workers shown until the user asks for all: the busiest, enough to compare. */
const FIRST = 30
const CELLS =
  "Columns 1–10 are the dimensions; a cell is the share of the worker's annotations in that dimension."

const pct = (x: number) => `${(x * 100).toFixed(1)}%`
const wholePct = (x: number) => `${Math.round(x * 100)}%`

/** Which workers the map holds, and why. */
function noteFor(map: WorkerDimensionMap): string {
  return map.workers.length < map.workerCount
    ? `The ${formatCount(map.workers.length)} workers with the most annotations, of ${formatCount(map.workerCount)}.`
    : `All ${plural(map.workerCount, 'worker')}, the most annotations first.`
}

function ColourKey() {
  const stops = COLOUR_KEY.map((k, i) => `${k.color} ${(i / (COLOUR_KEY.length - 1)) * 100}%`)
  return (
    <figure className="heatmap-key" data-testid="heatmap-legend">
      <figcaption>{KEY_CAPTION}</figcaption>
      <div
        className="heatmap-key-bar"
        style={{ background: `linear-gradient(to right, ${stops.join(', ')})` }}
      />
      <div className="heatmap-key-labels">
        {COLOUR_KEY.map((k, i) => (
          <span key={k.label} style={{ left: `${(i / (COLOUR_KEY.length - 1)) * 100}%` }}>
            {k.label}
          </span>
        ))}
      </div>
    </figure>
  )
}

/**
 * The busiest workers' share of each dimension against the crowd's (every worker's on request).
 * A cell opens the review grid on that worker and dimension.
 */
export function HeatMap() {
  const { dataVersion } = useStore(projectState)
  const [all, setAll] = useState(false)
  const [map, setMap] = useState<WorkerDimensionMap | null>(null)
  const table = useRef<HTMLTableElement>(null)

  useEffect(() => {
    let live = true
    api.dashboard
      .workerDimensions({ limit: all ? null : FIRST })
      .then((m) => live && setMap(m))
      .catch((e: unknown) => live && showError('Reading the worker × dimension map', e))
    return () => {
      live = false
    }
  }, [dataVersion, all])

  const save = (format: ImageFormat) => {
    if (!map) return
    const width = Math.max(560, Math.round(table.current?.offsetWidth ?? 0))
    const body = heatMapSvg(map, width, CELLS)
    saveFigure(figureSvg({ title: TITLE, note: noteFor(map), body }), TITLE, format).catch(
      (e: unknown) => showError(`Saving “${TITLE}” as ${format.toUpperCase()}`, e),
    )
  }

  return (
    <ChartCard
      title={TITLE}
      testId="chart-heatmap"
      description="Share of each busy worker's annotations per dimension, against the crowd: blue above, red below. Click a cell to review those annotations."
      onSave={save}
      wide
    >
      {!map ? (
        <div className="empty-state">Loading the map…</div>
      ) : (
        <>
          <div className="heatmap-intro">
            <p>
              <span data-testid="heatmap-note">{noteFor(map)}</span>{' '}
              {map.workerCount > FIRST && (
                <button
                  className="link"
                  data-testid="heatmap-show-all"
                  onClick={() => setAll(!all)}
                >
                  {all
                    ? `Show the ${FIRST} busiest`
                    : `Show all ${plural(map.workerCount, 'worker')}`}
                </button>
              )}
              <br />
              {CELLS}
            </p>
            <ColourKey />
          </div>
          <table className="heatmap" ref={table}>
            <colgroup>
              <col className="heatmap-col-worker" />
              <col className="heatmap-col-count" />
              {Array.from({ length: 10 }, (_, d) => (
                <col key={d} />
              ))}
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Worker</th>
                <th scope="col" className="num">
                  Annotations
                </th>
                {Array.from({ length: 10 }, (_, d) => (
                  <th key={d} scope="col" className="num" title={`Dimension ${d + 1}`}>
                    {d + 1}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr className="heatmap-crowd">
                <th scope="row">crowd</th>
                <td />
                {map.crowd.map((c, d) => (
                  <td
                    key={d}
                    className="num"
                    title={`All workers: ${pct(c)} of annotations in dimension ${d + 1}`}
                  >
                    {pct(c)}
                  </td>
                ))}
              </tr>
              {map.workers.map((w) => (
                <tr key={w.workerId} data-testid="heatmap-row" data-worker={w.workerId}>
                  <th scope="row" className="mono" title={w.workerId}>
                    {w.workerId}
                  </th>
                  <td className="num">{formatCount(w.annotations)}</td>
                  {w.shares.map((s, d) => {
                    const crowd = map.crowd[d] ?? 0
                    const background = cellColor(s, crowd)
                    return (
                      <td key={d} className="heatmap-cell-wrap">
                        <button
                          className="heatmap-cell"
                          data-testid="heatmap-cell"
                          data-worker={w.workerId}
                          data-dimension={d + 1}
                          style={{ background, color: textOn(background) }}
                          title={`Worker ${w.workerId}, dimension ${d + 1}: ${pct(s)} of their annotations; the crowd's ${pct(crowd)}: ${ratioText(s, crowd)}. Click to open them in the grid.`}
                          onClick={() =>
                            showInReview({ workers: [w.workerId], dimensions: [d + 1] })
                          }
                        >
                          {wholePct(s)}
                        </button>
                      </td>
                    )
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </ChartCard>
  )
}
