import { type ReactNode, useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { fileName, savePng } from './download'

interface ChartCardProps {
  title: string
  testId: string
  /** What the chart shows, for screen readers and the card's tooltip. */
  description: string
  onSave: () => void
  saveLabel?: string
  children: ReactNode
}

/** A dashboard card: title, the chart, and a button that saves it as a file. */
export function ChartCard({
  title,
  testId,
  description,
  onSave,
  saveLabel,
  children,
}: ChartCardProps) {
  return (
    <section className="chart-card" data-testid={testId} aria-label={title} title={description}>
      <header className="chart-card-head">
        <h2>{title}</h2>
        <button className="small" data-testid={`${testId}-save`} onClick={onSave}>
          {saveLabel ?? 'Save PNG'}
        </button>
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

  const save = () => {
    if (plot.current) savePng(plot.current.ctx.canvas, fileName(title, 'png'))
  }

  return (
    <ChartCard title={title} testId={testId} description={description} onSave={save}>
      <div className="chart-host" ref={host} role="img" aria-label={description} />
    </ChartCard>
  )
}
