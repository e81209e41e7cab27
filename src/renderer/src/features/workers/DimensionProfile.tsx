import { DIMENSIONS } from '../../../../shared/glucose/dimensions'
import { largest } from '../../../../shared/lists'

interface DimensionProfileProps {
  /** Share of the worker's and of the crowd's annotations per dimension (0–1). */
  profile: ReadonlyArray<{ dimension: number; worker: number; crowd: number }>
}

/** Share of each dimension in this worker's annotations (dark) beside the crowd's (light). */
export function DimensionProfile({ profile }: DimensionProfileProps) {
  const w = DIMENSIONS.map((d) => profile.find((p) => p.dimension === d.number)?.worker ?? 0)
  const c = DIMENSIONS.map((d) => profile.find((p) => p.dimension === d.number)?.crowd ?? 0)
  const max = largest([...w, ...c], 0.01)
  const width = 360
  const height = 120
  const top = 8
  const bottom = 18
  const plot = height - top - bottom
  const band = width / 10
  const bar = (band - 8) / 2

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-label="Dimension profile of this worker against the crowd"
        data-testid="dimension-profile"
      >
        <line x1={0} x2={width} y1={top + plot} y2={top + plot} className="chart-axis" />
        {DIMENSIONS.map((d, i) => {
          const x = i * band + 4
          const wh = ((w[i] ?? 0) / max) * plot
          const ch = ((c[i] ?? 0) / max) * plot
          return (
            <g key={d.number}>
              <title>{`Dimension ${d.number} (${d.name}): worker ${pct(w[i])}, crowd ${pct(c[i])}`}</title>
              <rect
                x={x}
                y={top + plot - wh}
                width={bar}
                height={wh}
                className="chart-bar-worker"
              />
              <rect
                x={x + bar}
                y={top + plot - ch}
                width={bar}
                height={ch}
                className="chart-bar-crowd"
              />
              <text x={x + bar} y={height - 4} className="chart-label" textAnchor="middle">
                {d.number}
              </text>
            </g>
          )
        })}
      </svg>
      <figcaption className="chart-legend">
        <span className="legend-swatch chart-bar-worker" /> this worker
        <span className="legend-swatch chart-bar-crowd" /> crowd · share of annotations per
        dimension
      </figcaption>
    </figure>
  )
}

function pct(share: number | undefined): string {
  return `${((share ?? 0) * 100).toFixed(1)}%`
}
