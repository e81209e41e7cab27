import { type ReactNode, useEffect, useMemo, useRef } from 'react'
import uPlot from 'uplot'
import { showError } from '../messages/messages'
import 'uplot/dist/uPlot.min.css'
import { saveFigure } from './download'
import { figureSvg, type LegendEntry } from './figure'
import { hoverTip, seriesLabel } from './hoverTip'
import { plotSvg } from './plotSvg'

export type ImageFormat = 'png' | 'svg'

interface ChartCardProps {
  title: string
  testId: string
  /** What the chart shows, for screen readers and the card's tooltip. */
  description: string
  onSave: (format: ImageFormat) => void
  /** The whole width of the dashboard, not one column of it. */
  wide?: boolean
  children: ReactNode
}

/** A dashboard card: title, the chart, and buttons that save it as a PNG or an SVG file. */
export function ChartCard({
  title,
  testId,
  description,
  onSave,
  wide = false,
  children,
}: ChartCardProps) {
  return (
    <section
      className={wide ? 'chart-card chart-card-wide' : 'chart-card'}
      data-testid={testId}
      aria-label={title}
      title={description}
    >
      <header className="chart-card-head">
        <h2>{title}</h2>
        <span className="chart-card-saves">
          {(['png', 'svg'] as const).map((format) => (
            <button
              key={format}
              className="small"
              data-testid={`${testId}-save-${format}`}
              title={`Save “${title}” as ${format.toUpperCase()}`}
              onClick={() => onSave(format)}
            >
              Save {format.toUpperCase()}
            </button>
          ))}
        </span>
      </header>
      {children}
    </section>
  )
}

export type PlotOptions = Omit<uPlot.Options, 'width' | 'height'>

interface PlotChartProps {
  title: string
  testId: string
  description: string
  options: PlotOptions
  data: uPlot.AlignedData
  height?: number
}

/** The legend of a chart's shown series, for its saved file. */
function legendOf(options: PlotOptions): LegendEntry[] {
  return options.series.slice(1).flatMap((series) => {
    if (series.show === false) return []
    const stroke = typeof series.stroke === 'string' ? series.stroke : '#1d2125'
    const fill = typeof series.fill === 'string' ? series.fill : undefined
    return [
      {
        label: seriesLabel(series),
        stroke,
        ...(fill ? { fill } : {}),
        kind: series.paths ? ('bar' as const) : ('line' as const),
      },
    ]
  })
}

/**
 * A uPlot chart in a card, sized to the card, redrawn when its data or options change. Its legend
 * names the series; the values at the cursor show beside it. It saves with its title and legend.
 */
export function PlotChart({
  title,
  testId,
  description,
  options,
  data,
  height = 220,
}: PlotChartProps) {
  const host = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const screenOptions = useMemo<PlotOptions>(
    () => ({
      ...options,
      legend: { ...options.legend, live: false },
      plugins: [...(options.plugins ?? []), hoverTip(`${testId}-tip`)],
    }),
    [options, testId],
  )

  useEffect(() => {
    const el = host.current
    if (!el) return
    const u = new uPlot(
      { ...screenOptions, width: Math.max(200, el.clientWidth), height },
      data,
      el,
    )
    plot.current = u
    const observer = new ResizeObserver(() => {
      const width = Math.max(200, el.clientWidth)
      if (width !== u.width) u.setSize({ width, height })
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      u.destroy()
      plot.current = null
    }
  }, [screenOptions, data, height])

  const save = (format: ImageFormat) => {
    const u = plot.current
    if (!u) return
    // As shown: a series hidden from the legend stays out of the file.
    const shown = {
      ...options,
      series: options.series.map((s, i) => ({ ...s, show: u.series[i]?.show ?? true })),
    }
    const size = { width: u.width, height: u.height }
    plotSvg(shown, data, size)
      .then((svg) =>
        saveFigure(
          figureSvg({ title, note: description, body: { svg, ...size }, legend: legendOf(shown) }),
          title,
          format,
        ),
      )
      .catch((e: unknown) => showError(`Saving “${title}” as ${format.toUpperCase()}`, e))
  }
  return (
    <ChartCard title={title} testId={testId} description={description} onSave={save}>
      <div className="chart-host" ref={host} role="img" aria-label={description} />
    </ChartCard>
  )
}
