import { type ReactNode, useEffect, useRef } from 'react'
import uPlot from 'uplot'
import { showError } from '../messages/messages'
import 'uplot/dist/uPlot.min.css'
import { download, fileName, savePng } from './download'
import { plotSvg } from './plotSvg'

export type ImageFormat = 'png' | 'svg'

interface ChartCardProps {
  title: string
  testId: string
  /** What the chart shows, for screen readers and the card's tooltip. */
  description: string
  onSave: (format: ImageFormat) => void
  children: ReactNode
}

/** A dashboard card: title, the chart, and buttons that save it as a PNG or an SVG file. */
export function ChartCard({ title, testId, description, onSave, children }: ChartCardProps) {
  return (
    <section className="chart-card" data-testid={testId} aria-label={title} title={description}>
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

/** A uPlot chart in a card, sized to the card, redrawn when its data or options change. */
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

  useEffect(() => {
    const el = host.current
    if (!el) return
    const u = new uPlot({ ...options, width: Math.max(200, el.clientWidth), height }, data, el)
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
  }, [options, data, height])

  const save = (format: ImageFormat) => {
    const u = plot.current
    if (!u) return
    if (format === 'png') {
      savePng(u.ctx.canvas, fileName(title, 'png'))
      return
    }
    plotSvg(options, data, { width: u.width, height: u.height })
      .then((svg) => download(new Blob([svg], { type: 'image/svg+xml' }), fileName(title, 'svg')))
      .catch((e: unknown) => showError(`Saving “${title}” as SVG`, e))
  }

  return (
    <ChartCard title={title} testId={testId} description={description} onSave={save}>
      <div className="chart-host" ref={host} role="img" aria-label={description} />
    </ChartCard>
  )
}
