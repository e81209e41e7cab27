import type { WorkerDimensionMap } from '../../../../shared/contract/dashboard'
import { formatCount } from '../../lib/format'
import { textOn } from '../ratings/scaleMath'
import { svgElement, svgText, textWidth } from './figure'
import { cellColor, COLOUR_KEY, KEY_CAPTION } from './heatColours'

const ROW = 20
const FONT_SIZE = 11
const MUTED = '#626b75'

/**
 * The heat map's drawing for its saved file, `width` wide as on screen: the colour key and what a
 * cell is, then the table with every number (crowd's row first) on its cell's colour.
 */
export function heatMapSvg(
  map: WorkerDimensionMap,
  width: number,
  cells: string,
): { svg: string; width: number; height: number } {
  const svg = svgElement('svg', { 'font-size': FONT_SIZE })
  const defs = svgElement('defs', {})
  const gradient = svgElement('linearGradient', { id: 'heatmap-key', x1: 0, x2: 1, y1: 0, y2: 0 })
  COLOUR_KEY.forEach((k, i) =>
    gradient.append(
      svgElement('stop', {
        offset: `${(i / (COLOUR_KEY.length - 1)) * 100}%`,
        'stop-color': k.color,
      }),
    ),
  )
  defs.append(gradient)
  svg.append(defs)

  // The key: caption, the colour bar, its stops' labels under it.
  const keyWidth = 420
  svg.append(svgText(cells, { x: 0, y: 12, fill: MUTED }))
  svg.append(svgText(KEY_CAPTION, { x: 0, y: 32, fill: MUTED }))
  const keyLeft = Math.ceil(textWidth(KEY_CAPTION, FONT_SIZE)) + 12
  svg.append(
    svgElement('rect', {
      x: keyLeft,
      y: 23,
      width: keyWidth,
      height: 12,
      fill: 'url(#heatmap-key)',
      stroke: '#c5cad1',
    }),
  )
  COLOUR_KEY.forEach((k, i) => {
    const x = keyLeft + (i / (COLOUR_KEY.length - 1)) * keyWidth
    const anchor = i === 0 ? 'start' : i === COLOUR_KEY.length - 1 ? 'end' : 'middle'
    svg.append(svgText(k.label, { x, y: 50, 'text-anchor': anchor, fill: MUTED }))
  })

  // The table: worker, annotations, then ten equal columns.
  const top = 64
  const idWidth = Math.max(
    60,
    ...map.workers.map((w) => Math.ceil(textWidth(w.workerId, FONT_SIZE)) + 12),
  )
  const countWidth = 84
  const cellWidth = Math.max(36, (width - idWidth - countWidth) / 10)
  const tableWidth = idWidth + countWidth + cellWidth * 10
  const cellX = (d: number) => idWidth + countWidth + d * cellWidth
  const baseline = (row: number) => top + row * ROW + ROW / 2
  const header = { y: baseline(0), 'dominant-baseline': 'central', fill: MUTED }
  svg.append(svgText('Worker', { ...header, x: 0 }))
  svg.append(
    svgText('Annotations', { ...header, x: idWidth + countWidth - 8, 'text-anchor': 'end' }),
  )
  for (let d = 0; d < 10; d++) {
    svg.append(
      svgText(String(d + 1), { ...header, x: cellX(d) + cellWidth / 2, 'text-anchor': 'middle' }),
    )
  }
  svg.append(
    svgText('crowd', { x: 0, y: baseline(1), 'dominant-baseline': 'central', fill: MUTED }),
  )
  map.crowd.forEach((c, d) =>
    svg.append(
      svgText(`${(c * 100).toFixed(1)}%`, {
        x: cellX(d) + cellWidth / 2,
        y: baseline(1),
        'dominant-baseline': 'central',
        'text-anchor': 'middle',
        fill: MUTED,
      }),
    ),
  )
  map.workers.forEach((w, i) => {
    const row = i + 2
    const y = baseline(row)
    svg.append(svgText(w.workerId, { x: 0, y, 'dominant-baseline': 'central' }))
    svg.append(
      svgText(formatCount(w.annotations), {
        x: idWidth + countWidth - 8,
        y,
        'dominant-baseline': 'central',
        'text-anchor': 'end',
      }),
    )
    w.shares.forEach((s, d) => {
      const fill = cellColor(s, map.crowd[d] ?? 0)
      svg.append(
        svgElement('rect', {
          x: cellX(d) + 0.5,
          y: top + row * ROW + 0.5,
          width: cellWidth - 1,
          height: ROW - 1,
          fill,
        }),
        svgText(`${Math.round(s * 100)}%`, {
          x: cellX(d) + cellWidth / 2,
          y,
          'dominant-baseline': 'central',
          'text-anchor': 'middle',
          fill: textOn(fill),
        }),
      )
    })
  })
  const height = top + (map.workers.length + 2) * ROW
  svg.setAttribute('width', String(tableWidth))
  svg.setAttribute('height', String(height))
  svg.setAttribute('viewBox', `0 0 ${tableWidth} ${height}`)
  return { svg: new XMLSerializer().serializeToString(svg), width: tableWidth, height }
}
