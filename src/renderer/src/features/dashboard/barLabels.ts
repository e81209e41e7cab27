import uPlot from 'uplot'

interface DrawnBar {
  seriesIdx: number
  idx: number
  /** Canvas pixels: the bar's left edge, top and width. */
  left: number
  top: number
  width: number
}

/**
 * Bars with their values written above them, so a bar too short to see (or a zero) still reads.
 * The bars' path builder reports each bar it lays out; the plugin writes the labels once the
 * chart is drawn (into the SVG as well, when the chart is saved).
 */
export class BarLabels {
  // Per chart: the same options draw the screen's chart and the saved one.
  private readonly drawn = new WeakMap<uPlot, Map<string, DrawnBar>>()

  constructor(private readonly label: (value: number) => string) {}

  bars(options: uPlot.Series.BarsPathBuilderOpts): uPlot.Series.PathBuilder | undefined {
    return uPlot.paths.bars?.({
      ...options,
      each: (u, seriesIdx, idx, left, top, width) => {
        let bars = this.drawn.get(u)
        if (!bars) {
          bars = new Map<string, DrawnBar>()
          this.drawn.set(u, bars)
        }
        bars.set(`${seriesIdx}:${idx}`, { seriesIdx, idx, left, top, width })
      },
    })
  }

  readonly plugin: uPlot.Plugin = {
    hooks: {
      draw: (u) => {
        const ctx = u.ctx
        const px = uPlot.pxRatio
        const labels = [...(this.drawn.get(u)?.values() ?? [])].flatMap((bar) => {
          const value = u.data[bar.seriesIdx]?.[bar.idx]
          if (!u.series[bar.seriesIdx]?.show || value === null || value === undefined) return []
          return [{ bar, text: this.label(value) }]
        })
        ctx.save()
        // One size for every label, small enough that the widest fits over its bar (the bars
        // of a rating stand side by side), but not below 8 px.
        const font = (size: number) => `${size * px}px system-ui, sans-serif`
        ctx.font = font(11)
        const overflow = Math.max(
          1,
          ...labels.map((l) => ctx.measureText(l.text).width / (l.bar.width - 3 * px)),
        )
        ctx.font = font(Math.max(8, Math.floor(11 / overflow)))
        ctx.fillStyle = '#1d2125'
        ctx.textAlign = 'center'
        ctx.textBaseline = 'bottom'
        for (const { bar, text } of labels) {
          ctx.fillText(text, bar.left + bar.width / 2, bar.top - 2 * px)
        }
        ctx.restore()
      },
    },
  }
}
