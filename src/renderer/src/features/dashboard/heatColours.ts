/**
 * The heat map's colours: how far a worker's share of a dimension is from the crowd's, on a
 * log scale: white the same, blue above, red below, full at four times (or a quarter) or more.
 */

const BLUE = [47, 95, 208] as const
const RED = [180, 35, 24] as const
const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0')

/** The colour at `ratio` = the worker's share ÷ the crowd's. */
function colourAt(ratio: number): string {
  const log = Math.log2(Math.max(ratio, 1e-6))
  const t = Math.min(1, Math.abs(log) / 2)
  const [r, g, b] = log >= 0 ? BLUE : RED
  return `#${[r, g, b].map((c) => hex(255 + (c - 255) * t)).join('')}`
}

export function cellColor(share: number, crowd: number): string {
  if (crowd <= 0) return share > 0 ? colourAt(4) : '#ffffff'
  return colourAt(Math.max(share, 1e-4) / crowd)
}

export const KEY_CAPTION = "Colour: the worker's share against the crowd's"

/** The key's stops, left to right, evenly spaced (the scale is logarithmic). */
export const COLOUR_KEY = [
  { label: '¼× or less', color: colourAt(1 / 4) },
  { label: '½×', color: colourAt(1 / 2) },
  { label: 'as the crowd', color: colourAt(1) },
  { label: '2×', color: colourAt(2) },
  { label: '4× or more', color: colourAt(4) },
] as const

/** What a cell's colour says, in words: `1.3× the crowd's share: above it, blue`. */
export function ratioText(share: number, crowd: number): string {
  if (crowd <= 0) return share > 0 ? 'the crowd has none here: blue' : 'none, as the crowd: white'
  const ratio = share / crowd
  const times = ratio < 0.095 ? ratio.toFixed(2) : ratio.toFixed(1)
  const side =
    ratio > 1.07 ? 'above it, blue' : ratio < 0.93 ? 'below it, red' : 'about the same, white'
  return `${times}× the crowd's share: ${side}`
}
