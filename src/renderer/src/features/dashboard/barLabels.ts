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
        ctx.save()
        ctx.font = `${Math.round(11 * px)}px system-ui, sans-serif`
        ctx.fillStyle = '#1d2125'
        ctx.textAlign = 'center'
        ctx.textBaseline = 'bottom'
        for (const bar of this.drawn.get(u)?.values() ?? []) {
          const value = u.data[bar.seriesIdx]?.[bar.idx]
          if (!u.series[bar.seriesIdx]?.show || value === null || value === undefined) continue
          ctx.fillText(this.label(value), bar.left + bar.width / 2, bar.top - 2 * px)
        }
        ctx.restore()
      },
    },
  }
}
