import type uPlot from 'uplot'

/** A series' value as its `value` option writes it (uPlot makes every option a function). */
function valueText(u: uPlot, seriesIdx: number, idx: number): string {
  const series = u.series[seriesIdx]
  const raw = u.data[seriesIdx]?.[idx]
  if (!series || raw === null || raw === undefined) return '–'
  const value = series.value
  return typeof value === 'function' ? String(value(u, raw, seriesIdx, idx)) : String(raw)
}

/** A series' name (uPlot also takes an element for it). */
export function seriesLabel(series: uPlot.Series): string {
  const label = series.label
  return typeof label === 'string' ? label : (label?.textContent ?? '')
}

/** The series' colour as its legend shows it: a bar's fill, a line's stroke. */
function swatchColor(u: uPlot, seriesIdx: number): string {
  const series = u.series[seriesIdx]
  const color = series?.paths ? (series.fill ?? series.stroke) : series?.stroke
  // uPlot keeps colours as functions of the chart and the series once it has started.
  const value: unknown = typeof color === 'function' ? color(u, seriesIdx) : color
  return typeof value === 'string' ? value : '#1d2125'
}

/**
 * The values at the cursor, in a box beside it: the legend names the series, this says what the
 * hovered position holds (the x value first, then each shown series).
 */
export function hoverTip(testId: string): uPlot.Plugin {
  let tip: HTMLDivElement | null = null
  return {
    hooks: {
      init: (u) => {
        tip = document.createElement('div')
        tip.className = 'chart-tip'
        tip.dataset.testid = testId
        tip.hidden = true
        u.over.append(tip)
      },
      setCursor: (u) => {
        if (!tip) return
        const { idx, left = -1, top = -1 } = u.cursor
        if (idx === null || idx === undefined || left < 0) {
          tip.hidden = true
          return
        }
        const head = document.createElement('div')
        head.className = 'chart-tip-head'
        head.textContent = valueText(u, 0, idx)
        const rows = u.series.flatMap((series, i) => {
          if (i === 0 || !series.show) return []
          const row = document.createElement('div')
          row.className = 'chart-tip-row'
          const swatch = document.createElement('span')
          swatch.className = 'chart-tip-swatch'
          swatch.style.background = swatchColor(u, i)
          const label = document.createElement('span')
          label.textContent = seriesLabel(series)
          const value = document.createElement('span')
          value.className = 'chart-tip-value'
          value.textContent = valueText(u, i, idx)
          row.append(swatch, label, value)
          return [row]
        })
        tip.replaceChildren(head, ...rows)
        tip.hidden = false
        // Beside the cursor, on whichever side has room, inside the plot.
        const width = tip.offsetWidth
        const height = tip.offsetHeight
        const plotWidth = u.over.clientWidth
        const plotHeight = u.over.clientHeight
        const x = left + 12 + width <= plotWidth ? left + 12 : Math.max(0, left - 12 - width)
        const y = Math.min(Math.max(0, top - height / 2), Math.max(0, plotHeight - height))
        tip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`
      },
    },
  }
}
