import { useEffect, useMemo, useState } from 'react'
import uPlot from 'uplot'
import type {
  DaySubmissions,
  DimensionsFilled,
  RatingShares,
  TierOverTime,
} from '../../../../shared/contract/dashboard'
import { api } from '../../api'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { ratingScale } from '../ratings/scale'
import { levelFor, ratingText } from '../ratings/scaleMath'
import { formatCount, plural } from '../../lib/format'
import { BarLabels } from './barLabels'
import { type PlotOptions, PlotChart } from './Chart'
import { HeatMap } from './HeatMap'
import './dashboard.css'

const UNRATED = '#8b939c'
const ACCENT = '#2f5fd0'

interface Figures {
  days: DaySubmissions[]
  dimensions: DimensionsFilled
  ratings: RatingShares
  tiers: TierOverTime
}

const bars = uPlot.paths.bars
const DAY = 86400
const percent = (v: number) => `${v.toFixed(1)}%`
const percentAxis: uPlot.Axis = {
  values: (_u: uPlot, ticks: number[]) => ticks.map((t) => `${t}%`),
}
/** A bar's value written above it: whole percents, one decimal below 10. */
const barPercent = (v: number) => (v === 0 || v >= 9.95 ? `${Math.round(v)}%` : `${v.toFixed(1)}%`)

/** Values from zero, so a bar's height is its value; `headroom` leaves space above the tallest. */
function fromZero(headroom = 1.1): uPlot.Scale {
  return { range: (_u, _min, max) => [0, max > 0 ? max * headroom : 1] }
}

/**
 * An x scale with half a step of room either side: a bar at the first or last position is drawn
 * whole, not cut by the plot's edge.
 */
function padded(step: number, time: boolean): uPlot.Scale {
  return { time, range: (_u, min, max) => [min - step / 2, max + step / 2] }
}

/** Days as the data has them: midnight UTC, written `YYYY-MM-DD` whatever the local zone. */
const utc = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC')
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)

const of = (list: Array<{ rating: number | null; n: number }>, k: number | null) =>
  list.find((r) => r.rating === k)?.n ?? 0

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : (part / whole) * 100
}

/** The dashboard: volume, dimensions filled, ratings and tiers over time, worker × dimension. */
export function DashboardPage() {
  const { dataVersion } = useStore(projectState)
  const scale = useStore(ratingScale)
  const [figures, setFigures] = useState<Figures | null>(null)

  useEffect(() => {
    let live = true
    Promise.all([
      api.dashboard.submissionsPerDay({}),
      api.dashboard.dimensions({}),
      api.dashboard.ratings({}),
      api.dashboard.tierOverTime({}),
    ])
      .then(([days, dimensions, ratings, tiers]) => {
        if (live) setFigures({ days, dimensions, ratings, tiers })
      })
      .catch((e: unknown) => live && showError('Reading the dashboard', e))
    return () => {
      live = false
    }
  }, [dataVersion])

  const color = (rating: number | null) => levelFor(scale, rating)?.color ?? UNRATED
  const charts = useMemo(() => {
    if (!figures) return null
    const { days, dimensions, ratings, tiers } = figures
    const volume: [PlotOptions, uPlot.AlignedData] = [
      {
        tzDate: utc,
        scales: { x: padded(DAY, true), y: fromZero() },
        series: [
          { label: 'day', value: (_u, v) => isoDay(v) },
          {
            label: 'Submissions',
            stroke: ACCENT,
            fill: 'rgba(47, 95, 208, 0.35)',
            paths: bars?.({ size: [0.8, 40] }),
            points: { show: false },
            value: (_u, v) => formatCount(v),
          },
        ],
      },
      [days.map((d) => d.day), days.map((d) => d.submissions)],
    ]

    const overallTotal = dimensions.overall.reduce((a, b) => a + b, 0)
    const dims: [PlotOptions, uPlot.AlignedData] = [
      {
        scales: { x: padded(1, false), y: fromZero() },
        axes: [
          { label: 'dimension', splits: () => Array.from({ length: 10 }, (_, i) => i + 1) },
          percentAxis,
        ],
        series: [
          { label: 'dimension', value: (_u, v) => `dimension ${v}` },
          {
            label: 'all',
            stroke: '#1d2125',
            fill: 'rgba(29, 33, 37, 0.12)',
            paths: bars?.({ size: [0.7, 60] }),
            points: { show: false },
            value: (_u, v) => percent(v),
          },
          ...dimensions.byRating.map((r) => ({
            label: ratingText(r.rating, scale),
            stroke: color(r.rating),
            width: 2,
            points: { show: true, size: 6, fill: color(r.rating) },
            value: (_u: uPlot, v: number) => percent(v),
          })),
        ],
      },
      [
        Array.from({ length: 10 }, (_, i) => i + 1),
        dimensions.overall.map((n) => share(n, overallTotal)),
        ...dimensions.byRating.map((r) => {
          const total = r.counts.reduce((a, b) => a + b, 0)
          return r.counts.map((n) => share(n, total))
        }),
      ],
    ]

    const keys = [
      ...new Set([...ratings.workers, ...ratings.annotations].map((r) => r.rating)),
    ].sort((a, b) => (b ?? -Infinity) - (a ?? -Infinity))
    const workerCounts = keys.map((k) => of(ratings.workers, k))
    const annotationCounts = keys.map((k) => of(ratings.annotations, k))
    const workerTotal = workerCounts.reduce((a, n) => a + n, 0)
    const annotationTotal = annotationCounts.reduce((a, n) => a + n, 0)
    const labels = new BarLabels(barPercent)
    const shares: [PlotOptions, uPlot.AlignedData] = [
      {
        scales: { x: padded(1, false), y: fromZero(1.15) },
        axes: [
          {
            label: 'rating',
            splits: () => keys.map((_, i) => i),
            values: (_u: uPlot, ticks: number[]) =>
              ticks.map((t) => (keys[t] === undefined ? '' : ratingText(keys[t] ?? null))),
          },
          percentAxis,
        ],
        series: [
          { label: 'rating', value: (_u, v) => ratingText(keys[v] ?? null, scale) },
          {
            label: 'workers',
            stroke: '#7a4cc2',
            fill: 'rgba(122, 76, 194, 0.5)',
            paths: labels.bars({ size: [0.35, 50], align: -1 }),
            points: { show: false },
            value: (_u, v, _s, i) =>
              `${percent(v)} (${plural(workerCounts[i ?? -1] ?? 0, 'worker')})`,
          },
          {
            label: 'contributions',
            stroke: ACCENT,
            fill: 'rgba(47, 95, 208, 0.5)',
            paths: labels.bars({ size: [0.35, 50], align: 1 }),
            points: { show: false },
            value: (_u, v, _s, i) =>
              `${percent(v)} (${plural(annotationCounts[i ?? -1] ?? 0, 'annotation')})`,
          },
        ],
        plugins: [labels.plugin],
      },
      [
        keys.map((_, i) => i),
        workerCounts.map((n) => share(n, workerTotal)),
        annotationCounts.map((n) => share(n, annotationTotal)),
      ],
    ]

    const weekTotals = tiers.weeks.map((_, i) =>
      tiers.series.reduce((a, s) => a + (s.counts[i] ?? 0), 0),
    )
    const overTime: [PlotOptions, uPlot.AlignedData] = [
      {
        tzDate: utc,
        scales: { y: fromZero(1.05) },
        axes: [{}, percentAxis],
        series: [
          { label: 'week', value: (_u, v) => `week of ${isoDay(v)}` },
          ...tiers.series.map((s) => ({
            label: ratingText(s.rating, scale),
            stroke: color(s.rating),
            width: 2,
            value: (_u: uPlot, v: number) => percent(v),
          })),
        ],
      },
      [
        tiers.weeks,
        ...tiers.series.map((s) => s.counts.map((n, i) => share(n, weekTotals[i] ?? 0))),
      ],
    ]
    return { volume, dims, shares, overTime }
    // `color` reads `scale`, which is listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [figures, scale])

  if (!figures || !charts) return <div className="empty-state">Loading the dashboard…</div>
  if (figures.days.length === 0)
    return <div className="empty-state">No submissions yet: import some to see the charts.</div>

  return (
    <div className="dashboard" data-testid="dashboard">
      <PlotChart
        title="Submissions per day"
        testId="chart-volume"
        description="How many submissions came in each day (days in UTC)"
        options={charts.volume[0]}
        data={charts.volume[1]}
      />
      <PlotChart
        title="Dimensions filled"
        testId="chart-dimensions"
        description="Share of annotations per dimension, overall and per rating"
        options={charts.dims[0]}
        data={charts.dims[1]}
      />
      <PlotChart
        title="Workers and contributions by rating"
        testId="chart-ratings"
        description="Share of workers (by their rating now) and of annotations (by effective rating) per rating"
        options={charts.shares[0]}
        data={charts.shares[1]}
      />
      <PlotChart
        title="Effective tier share per week"
        testId="chart-tiers"
        description="Share of each week's annotations per effective rating"
        options={charts.overTime[0]}
        data={charts.overTime[1]}
      />
      <HeatMap />
    </div>
  )
}
