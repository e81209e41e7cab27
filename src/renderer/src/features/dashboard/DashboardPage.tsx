import { useEffect, useMemo, useState } from 'react'
import uPlot from 'uplot'
import type {
  DaySubmissions,
  DimensionsFilled,
  RatingShares,
  TierOverTime,
  WorkerDimensionMap,
} from '../../../../shared/contract/dashboard'
import { api } from '../../api'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { ratingScale } from '../ratings/scale'
import { levelFor, ratingText } from '../ratings/scaleMath'
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
  heat: WorkerDimensionMap
}

const bars = uPlot.paths.bars
const percentAxis: uPlot.Axis = {
  values: (_u: uPlot, ticks: number[]) => ticks.map((t) => `${t}%`),
}
const categoryScale: uPlot.Scales = { x: { time: false } }

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
      api.dashboard.workerDimensions({ limit: 30 }),
    ])
      .then(([days, dimensions, ratings, tiers, heat]) => {
        if (live) setFigures({ days, dimensions, ratings, tiers, heat })
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
        series: [
          {},
          {
            label: 'Submissions',
            stroke: ACCENT,
            fill: 'rgba(47, 95, 208, 0.35)',
            paths: bars?.({ size: [0.8, 40] }),
            points: { show: false },
          },
        ],
        legend: { show: true },
      },
      [days.map((d) => d.day), days.map((d) => d.submissions)],
    ]

    const overallTotal = dimensions.overall.reduce((a, b) => a + b, 0)
    const dims: [PlotOptions, uPlot.AlignedData] = [
      {
        scales: categoryScale,
        axes: [{ label: 'dimension' }, percentAxis],
        series: [
          { label: 'dimension' },
          {
            label: 'all',
            stroke: '#1d2125',
            fill: 'rgba(29, 33, 37, 0.12)',
            paths: bars?.({ size: [0.7, 60] }),
            points: { show: false },
            value: (_u, v) => (v === null ? '' : `${v.toFixed(1)}%`),
          },
          ...dimensions.byRating.map((r) => ({
            label: ratingText(r.rating, scale),
            stroke: color(r.rating),
            width: 2,
            points: { show: true, size: 6, fill: color(r.rating) },
            value: (_u: uPlot, v: number | null) => (v === null ? '' : `${v.toFixed(1)}%`),
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
    const workerTotal = ratings.workers.reduce((a, r) => a + r.n, 0)
    const annotationTotal = ratings.annotations.reduce((a, r) => a + r.n, 0)
    const of = (list: Array<{ rating: number | null; n: number }>, k: number | null) =>
      list.find((r) => r.rating === k)?.n ?? 0
    const shares: [PlotOptions, uPlot.AlignedData] = [
      {
        scales: categoryScale,
        axes: [
          {
            values: (_u: uPlot, ticks: number[]) =>
              ticks.map((t) =>
                Number.isInteger(t) && t >= 0 && t < keys.length ? ratingText(keys[t] ?? null) : '',
              ),
          },
          percentAxis,
        ],
        series: [
          {
            label: 'rating',
            value: (_u: uPlot, v: number | null) =>
              v === null ? '' : ratingText(keys[v] ?? null, scale),
          },
          {
            label: 'workers',
            stroke: '#7a4cc2',
            fill: 'rgba(122, 76, 194, 0.5)',
            paths: bars?.({ size: [0.35, 50], align: -1 }),
            points: { show: false },
            value: (_u, v) => (v === null ? '' : `${v.toFixed(1)}%`),
          },
          {
            label: 'contributions',
            stroke: ACCENT,
            fill: 'rgba(47, 95, 208, 0.5)',
            paths: bars?.({ size: [0.35, 50], align: 1 }),
            points: { show: false },
            value: (_u, v) => (v === null ? '' : `${v.toFixed(1)}%`),
          },
        ],
      },
      [
        keys.map((_, i) => i),
        keys.map((k) => share(of(ratings.workers, k), workerTotal)),
        keys.map((k) => share(of(ratings.annotations, k), annotationTotal)),
      ],
    ]

    const weekTotals = tiers.weeks.map((_, i) =>
      tiers.series.reduce((a, s) => a + (s.counts[i] ?? 0), 0),
    )
    const overTime: [PlotOptions, uPlot.AlignedData] = [
      {
        axes: [{}, percentAxis],
        series: [
          {},
          ...tiers.series.map((s) => ({
            label: ratingText(s.rating, scale),
            stroke: color(s.rating),
            width: 2,
            value: (_u: uPlot, v: number | null) => (v === null ? '' : `${v.toFixed(1)}%`),
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
        description="Submissions per day (UTC)"
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
      <HeatMap map={figures.heat} />
    </div>
  )
}
