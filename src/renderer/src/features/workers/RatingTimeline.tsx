import type { RatingLevel, WorkerTimeline } from '../../../../shared/contract/ratings'
import { formatRating, levelFor } from '../ratings/scaleMath'
import { dayNumber, dayString, scaleLinear, stepSpans, timelineDomain } from './timelineMath'
import { largest, smallest } from '../../../../shared/lists'

import { plural } from '../../lib/format'

const W = 380
const LEFT = 26
const TOP = 70
const GAP = 14
const BARS = 48
const AXIS = 16
const H = TOP + GAP + BARS + AXIS
const UNRATED = '#c9ced6'

/**
 * The worker's rating in force over time (a step line, coloured by the scale, commit dates as ticks)
 * above the volume of their work per day (annotations stacked by effective rating).
 */
export function RatingTimeline({
  timeline,
  scale,
}: {
  timeline: WorkerTimeline
  scale: readonly RatingLevel[]
}) {
  const domain = timelineDomain(timeline.steps, timeline.volume)
  if (!domain) return <p className="note">No submissions or ratings yet.</p>
  const x = scaleLinear(domain[0], domain[1], LEFT, W)
  const values = scale.map((l) => l.value)
  const vMin = smallest(values, 0)
  const vMax = largest(values, 1)
  const y = scaleLinear(vMin, vMax, TOP - 6, 6)
  const maxDay = largest(
    timeline.volume.map((v) => v.annotations),
    1,
  )
  const barW = Math.max(1, (W - LEFT) / (domain[1] - domain[0]) - 1)
  const barY = scaleLinear(0, maxDay, TOP + GAP + BARS, TOP + GAP)
  const colorOf = (value: number | null) => levelFor(scale, value)?.color ?? UNRATED
  const order = [...scale].sort((a, b) => a.value - b.value)
  const ticks = [domain[0] + 1, Math.round((domain[0] + domain[1]) / 2), domain[1] - 1]

  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-label="Rating timeline and daily volume"
        data-testid="rating-timeline"
      >
        {scale.map((l) => (
          <line
            key={l.value}
            x1={LEFT}
            x2={W}
            y1={y(l.value)}
            y2={y(l.value)}
            className="chart-grid"
          />
        ))}
        {spacedLabels(
          scale.map((l) => l.value),
          y,
        ).map((v) => (
          <text key={v} x={LEFT - 4} y={y(v) + 3} className="chart-label" textAnchor="end">
            {formatRating(v)}
          </text>
        ))}
        <text x={LEFT - 4} y={barY(maxDay) + 8} className="chart-label" textAnchor="end">
          {maxDay}
        </text>
        {timeline.ratings
          .filter((r) => !r.retracted)
          .map((r) => (
            <line
              key={r.id}
              x1={x(dayNumber(r.commitDate))}
              x2={x(dayNumber(r.commitDate))}
              y1={0}
              y2={TOP + GAP + BARS}
              className="chart-commit"
            >
              <title>{`${r.commitDate}: ${formatRating(r.value)}${r.note ? ` — ${r.note}` : ''}`}</title>
            </line>
          ))}
        {stepSpans(timeline.steps, domain).map(([a, b, value], i) => (
          <line
            key={i}
            x1={x(a)}
            x2={x(b)}
            y1={value === null ? TOP - 2 : y(value)}
            y2={value === null ? TOP - 2 : y(value)}
            stroke={colorOf(value)}
            strokeWidth={value === null ? 2 : 4}
            strokeDasharray={value === null ? '3 3' : undefined}
            strokeLinecap="round"
          >
            <title>{`${value === null ? 'unrated' : formatRating(value)} from ${dayString(a)} to ${dayString(b)}`}</title>
          </line>
        ))}
        {timeline.volume.map((v) => {
          const cx = x(dayNumber(v.day)) - barW / 2
          let base = barY(0)
          const parts = [
            ...order.map((l) => [String(l.value), l.color] as const),
            ['unrated', UNRATED] as const,
          ]
          return (
            <g key={v.day}>
              <title>{`${v.day}: ${plural(v.submissions, 'submission')}, ${plural(v.annotations, 'annotation')}`}</title>
              {parts.map(([key, color]) => {
                const n = v.byRating[key] ?? 0
                if (n === 0) return null
                const h = barY(0) - barY(n)
                base -= h
                return <rect key={key} x={cx} y={base} width={barW} height={h} fill={color} />
              })}
            </g>
          )
        })}
        <line x1={LEFT} x2={W} y1={TOP + GAP + BARS} y2={TOP + GAP + BARS} className="chart-axis" />
        {ticks.map((t, i) => (
          <text
            key={t}
            x={x(t)}
            y={H - 3}
            className="chart-label"
            textAnchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}
          >
            {dayString(t)}
          </text>
        ))}
      </svg>
      <figcaption className="chart-legend">
        Rating in force (top) · annotations per day by effective rating (bottom) · ticks = commit
        dates
      </figcaption>
    </figure>
  )
}

/** Scale values to label on the y axis, skipping any that would sit on top of a neighbour. */
function spacedLabels(values: readonly number[], y: (v: number) => number): number[] {
  const shown: number[] = []
  for (const v of [...values].sort((a, b) => b - a)) {
    if (shown.every((s) => Math.abs(y(s) - y(v)) >= 9)) shown.push(v)
  }
  return shown
}
