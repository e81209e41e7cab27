/**
 * A chart as a file of its own: its title above the drawing, its legend below, at twice the size
 * it has on screen (a slide's size), as SVG or as the same picture in PNG.
 */

const SVG_NS = 'http://www.w3.org/2000/svg'
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
const TEXT = '#1d2125'
const MUTED = '#626b75'
/** A saved chart has at least this many times the pixels it has on screen. */
const SLIDE_SCALE = 2

const PAD = 16
const TITLE_SIZE = 16
const NOTE_SIZE = 12
const LEGEND_SIZE = 12
const SWATCH = 10

/** One entry of a chart's legend: a bar (filled box) or a line (a stroke with its point). */
export interface LegendEntry {
  label: string
  stroke: string
  fill?: string
  kind: 'bar' | 'line'
}

export interface Figure {
  title: string
  /** A line under the title, in muted text. */
  note?: string
  /** The drawing: an SVG document and the size it is shown at (CSS pixels). */
  body: { svg: string; width: number; height: number }
  legend?: LegendEntry[]
}

let measurer: CanvasRenderingContext2D | null = null

/** Text width in CSS pixels at `size` in the figure's font. */
export function textWidth(text: string, size: number): number {
  measurer ??= document.createElement('canvas').getContext('2d')
  if (!measurer) return text.length * size * 0.6
  measurer.font = `${size}px ${FONT}`
  return measurer.measureText(text).width
}

/** An SVG element with its attributes. */
export function svgElement(name: string, attributes: Record<string, string | number>): Element {
  const el = document.createElementNS(SVG_NS, name)
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v))
  return el
}

/** A `<text>` whose content is set as text (crowd text never becomes markup). */
export function svgText(content: string, attributes: Record<string, string | number>): Element {
  const el = svgElement('text', { 'font-family': FONT, fill: TEXT, ...attributes })
  el.textContent = content
  return el
}

/** Legend entries laid out in rows that wrap at `width`; returns the group and its height. */
function legendRows(entries: LegendEntry[], width: number): { group: Element; height: number } {
  const group = svgElement('g', { 'font-size': LEGEND_SIZE })
  const rowHeight = LEGEND_SIZE + 8
  const widths = entries.map((e) => SWATCH + 6 + textWidth(e.label, LEGEND_SIZE) + 18)
  // Rows are centred under the drawing, as the screen's legend is.
  const rows: number[][] = [[]]
  let used = 0
  widths.forEach((w, i) => {
    const row = rows[rows.length - 1] as number[]
    if (row.length > 0 && used + w > width) {
      rows.push([i])
      used = w
    } else {
      row.push(i)
      used += w
    }
  })
  rows.forEach((row, r) => {
    const rowWidth = row.reduce((a, i) => a + (widths[i] ?? 0), 0) - 18
    let x = (width - rowWidth) / 2
    const mid = r * rowHeight + rowHeight / 2
    for (const i of row) {
      const entry = entries[i] as LegendEntry
      if (entry.kind === 'bar') {
        group.append(
          svgElement('rect', {
            x,
            y: mid - SWATCH / 2,
            width: SWATCH,
            height: SWATCH,
            fill: entry.fill ?? 'none',
            stroke: entry.stroke,
          }),
        )
      } else {
        group.append(
          svgElement('line', {
            x1: x - 2,
            y1: mid,
            x2: x + SWATCH + 2,
            y2: mid,
            stroke: entry.stroke,
            'stroke-width': 2,
          }),
          svgElement('circle', { cx: x + SWATCH / 2, cy: mid, r: 3, fill: entry.stroke }),
        )
      }
      group.append(
        svgText(entry.label, { x: x + SWATCH + 6, y: mid, 'dominant-baseline': 'central' }),
      )
      x += widths[i] ?? 0
    }
  })
  return { group, height: rows.length * rowHeight }
}

/** The figure as an SVG document, sized for a slide; its drawing space is the screen's pixels. */
export function figureSvg(figure: Figure): string {
  const width = figure.body.width + 2 * PAD
  const svg = svgElement('svg', {})
  let y = PAD
  svg.append(
    svgText(figure.title, {
      x: PAD,
      y: y + TITLE_SIZE,
      'font-size': TITLE_SIZE,
      'font-weight': 600,
    }),
  )
  y += TITLE_SIZE + 6
  if (figure.note) {
    svg.append(
      svgText(figure.note, { x: PAD, y: y + NOTE_SIZE, 'font-size': NOTE_SIZE, fill: MUTED }),
    )
    y += NOTE_SIZE + 6
  }
  y += 8
  const body = new DOMParser().parseFromString(figure.body.svg, 'image/svg+xml').documentElement
  body.setAttribute('x', String(PAD))
  body.setAttribute('y', String(y))
  body.setAttribute('width', String(figure.body.width))
  body.setAttribute('height', String(figure.body.height))
  svg.append(document.importNode(body, true))
  y += figure.body.height
  if (figure.legend?.length) {
    const legend = legendRows(figure.legend, figure.body.width)
    legend.group.setAttribute('transform', `translate(${PAD} ${y + 8})`)
    svg.append(legend.group)
    y += legend.height + 8
  }
  const height = y + PAD
  svg.setAttribute('width', String(width * SLIDE_SCALE))
  svg.setAttribute('height', String(height * SLIDE_SCALE))
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`)
  svg.prepend(svgElement('rect', { width, height, fill: '#ffffff' }))
  return new XMLSerializer().serializeToString(svg)
}
