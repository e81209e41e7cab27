import type { WorkerDimensionMap } from '../../../../shared/contract/dashboard'
import { showInReview } from '../shell/navigation'
import { showError } from '../messages/messages'
import { ChartCard, type ImageFormat } from './Chart'
import { download, fileName, saveSvgAsPng } from './download'
import { plural } from '../../lib/format'

const TITLE = 'Worker × dimension'

/** How far a worker's share of a dimension is from the crowd's, as a colour: blue above, red below. */
function cellColor(share: number, crowd: number): string {
  if (crowd <= 0) return share > 0 ? 'rgb(47, 95, 208)' : '#ffffff'
  const ratio = Math.log2(Math.max(share, 1e-4) / crowd)
  const t = Math.min(1, Math.abs(ratio) / 2)
  const mix = (a: number) => Math.round(255 + (a - 255) * t)
  return ratio >= 0
    ? `rgb(${mix(47)}, ${mix(95)}, ${mix(208)})`
    : `rgb(${mix(180)}, ${mix(35)}, ${mix(24)})`
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

/** The heat map as a standalone SVG file (what "Save SVG" writes). */
function heatMapSvg(map: WorkerDimensionMap): string {
  const cw = 44
  const ch = 20
  const left = 120
  const top = 24
  const width = left + cw * 10 + 8
  const height = top + ch * map.workers.length + 8
  const esc = (s: string) =>
    s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...Array.from(
      { length: 10 },
      (_, d) => `<text x="${left + d * cw + cw / 2}" y="16" text-anchor="middle">${d + 1}</text>`,
    ),
  ]
  map.workers.forEach((w, row) => {
    const y = top + row * ch
    parts.push(`<text x="${left - 6}" y="${y + 14}" text-anchor="end">${esc(w.workerId)}</text>`)
    w.shares.forEach((s, d) => {
      parts.push(
        `<rect x="${left + d * cw}" y="${y}" width="${cw - 1}" height="${ch - 1}" fill="${cellColor(s, map.crowd[d] ?? 0)}"><title>${esc(w.workerId)}, dimension ${d + 1}: ${pct(s)}</title></rect>`,
      )
    })
  })
  parts.push('</svg>')
  return parts.join('')
}

/**
 * The busiest workers' share of each dimension against the crowd's. A cell opens the review grid
 * on that worker and dimension.
 */
export function HeatMap({ map }: { map: WorkerDimensionMap }) {
  const save = (format: ImageFormat) => {
    const svg = heatMapSvg(map)
    if (format === 'svg')
      download(new Blob([svg], { type: 'image/svg+xml' }), fileName(TITLE, 'svg'))
    else
      saveSvgAsPng(svg, fileName(TITLE, 'png')).catch((e: unknown) =>
        showError(`Saving “${TITLE}” as PNG`, e),
      )
  }
  return (
    <ChartCard
      title={TITLE}
      testId="chart-heatmap"
      description="Share of each busy worker's annotations per dimension, against the crowd: blue above, red below. Click a cell to review those annotations."
      onSave={save}
    >
      <div className="heatmap-scroll">
        <table className="heatmap">
          <thead>
            <tr>
              <th scope="col">Worker</th>
              {Array.from({ length: 10 }, (_, d) => (
                <th key={d} scope="col" className="num">
                  {d + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr className="heatmap-crowd">
              <th scope="row">crowd</th>
              {map.crowd.map((c, d) => (
                <td key={d} className="num">
                  {pct(c)}
                </td>
              ))}
            </tr>
            {map.workers.map((w) => (
              <tr key={w.workerId}>
                <th scope="row" className="mono" title={plural(w.annotations, 'annotation')}>
                  {w.workerId}
                </th>
                {w.shares.map((s, d) => (
                  <td key={d} className="heatmap-cell-wrap">
                    <button
                      className="heatmap-cell"
                      data-testid="heatmap-cell"
                      data-worker={w.workerId}
                      data-dimension={d + 1}
                      style={{ background: cellColor(s, map.crowd[d] ?? 0) }}
                      title={`Worker ${w.workerId}, dimension ${d + 1}: ${pct(s)} of their annotations (crowd ${pct(map.crowd[d] ?? 0)}). Open in the grid.`}
                      onClick={() => showInReview({ workers: [w.workerId], dimensions: [d + 1] })}
                    >
                      {Math.round(s * 100)}
                    </button>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ChartCard>
  )
}
