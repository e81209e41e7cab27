import { PathData, num } from './svgPath'

/**
 * A stand-in for a canvas's 2D context that writes SVG: the part of the context API a chart
 * library draws with (state, transforms, paths, clips, fill, stroke, text), each drawing call
 * becoming an element with the state of the moment. The chart is drawn once more into it, so the
 * SVG file is the library's own drawing, as vectors. Pure but for the text measure it is given.
 */

/** A path object the drawing calls pass (`new Path2D()` while recording), with its SVG data. */
export interface RecordedPath {
  readonly svgPath: PathData
}

/** What `save` keeps and `restore` puts back. */
interface State {
  fillStyle: unknown
  strokeStyle: unknown
  lineWidth: number
  lineJoin: string
  lineCap: string
  globalAlpha: number
  font: string
  textAlign: string
  textBaseline: string
  lineDash: number[]
  /** SVG transform list, in the order the canvas applied them. */
  transforms: string[]
  /** Ids of the clip paths in force, outermost first. */
  clips: string[]
}

const ANCHOR: Record<string, string> = {
  left: 'start',
  start: 'start',
  center: 'middle',
  right: 'end',
  end: 'end',
}

const BASELINE: Record<string, string> = {
  top: 'text-before-edge',
  hanging: 'hanging',
  middle: 'central',
  bottom: 'text-after-edge',
  ideographic: 'ideographic',
  alphabetic: 'auto',
}

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )
}

/** A colour the SVG can take: canvas gradients and patterns have none, so they draw nothing. */
function paint(style: unknown): string {
  return typeof style === 'string' ? escapeXml(style) : 'none'
}

export class SvgContext implements State {
  fillStyle: unknown = '#000000'
  strokeStyle: unknown = '#000000'
  lineWidth = 1
  lineJoin = 'miter'
  lineCap = 'butt'
  globalAlpha = 1
  font = '10px sans-serif'
  textAlign = 'start'
  textBaseline = 'alphabetic'
  lineDash: number[] = []
  transforms: string[] = []
  clips: string[] = []
  private stack: State[] = []
  private path = new PathData()
  private defs: string[] = []
  private body: string[] = []

  constructor(private readonly measure?: (font: string, text: string) => TextMetrics) {}

  save(): void {
    const { fillStyle, strokeStyle, lineWidth, lineJoin, lineCap, globalAlpha } = this
    const { font, textAlign, textBaseline, lineDash, transforms, clips } = this
    this.stack.push({
      fillStyle,
      strokeStyle,
      lineWidth,
      lineJoin,
      lineCap,
      globalAlpha,
      font,
      textAlign,
      textBaseline,
      lineDash,
      transforms,
      clips,
    })
  }

  restore(): void {
    const saved = this.stack.pop()
    if (saved) Object.assign(this, saved)
  }

  translate(x: number, y: number): void {
    if (x !== 0 || y !== 0) this.transforms = [...this.transforms, `translate(${num(x)} ${num(y)})`]
  }

  rotate(angle: number): void {
    if (angle !== 0)
      this.transforms = [...this.transforms, `rotate(${num((angle * 180) / Math.PI)})`]
  }

  setLineDash(dash: number[]): void {
    this.lineDash = [...dash]
  }

  getLineDash(): number[] {
    return [...this.lineDash]
  }

  measureText(text: string): TextMetrics {
    if (this.measure) return this.measure(this.font, text)
    return { width: text.length * 6 } as TextMetrics
  }

  /** The chart clears its canvas before each drawing; the SVG starts empty. */
  clearRect(): void {}

  beginPath(): void {
    this.path = new PathData()
  }
  moveTo(x: number, y: number): void {
    this.path.moveTo(x, y)
  }
  lineTo(x: number, y: number): void {
    this.path.lineTo(x, y)
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.path.rect(x, y, w, h)
  }
  closePath(): void {
    this.path.closePath()
  }
  arc(x: number, y: number, r: number, from: number, to: number, ccw?: boolean): void {
    this.path.arc(x, y, r, from, to, ccw)
  }

  clip(path?: RecordedPath | string, rule?: string): void {
    const fillRule = typeof path === 'string' ? path : rule
    const d = this.dataOf(path)
    const id = `clip${this.defs.length + 1}`
    this.defs.push(
      `<clipPath id="${id}" clipPathUnits="userSpaceOnUse"><path d="${d}"${this.transformAttr()}${
        fillRule === 'evenodd' ? ' clip-rule="evenodd"' : ''
      }/></clipPath>`,
    )
    this.clips = [...this.clips, id]
  }

  fill(path?: RecordedPath | string, rule?: string): void {
    const fillRule = typeof path === 'string' ? path : rule
    this.draw(
      `<path d="${this.dataOf(path)}" fill="${paint(this.fillStyle)}"${
        fillRule === 'evenodd' ? ' fill-rule="evenodd"' : ''
      }`,
    )
  }

  stroke(path?: RecordedPath): void {
    const s = this as State
    const dash = s.lineDash.length > 0 ? ` stroke-dasharray="${s.lineDash.map(num).join(' ')}"` : ''
    this.draw(
      `<path d="${this.dataOf(path)}" fill="none" stroke="${paint(s.strokeStyle)}" stroke-width="${num(
        s.lineWidth,
      )}" stroke-linejoin="${escapeXml(s.lineJoin)}" stroke-linecap="${escapeXml(s.lineCap)}"${dash}`,
    )
  }

  fillText(text: string, x: number, y: number): void {
    const s = this as State
    this.draw(
      `<text x="${num(x)}" y="${num(y)}" fill="${paint(s.fillStyle)}" style="font: ${escapeXml(
        s.font,
      )}" text-anchor="${ANCHOR[s.textAlign] ?? 'start'}" dominant-baseline="${
        BASELINE[s.textBaseline] ?? 'auto'
      }"`,
      escapeXml(text),
    )
  }

  /** The drawing as an SVG document: `width` × `height` pixels of the canvas, shown at `size`. */
  toSvg(width: number, height: number, size = { width, height }): string {
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${num(size.width)}" height="${num(
        size.height,
      )}" viewBox="0 0 ${num(width)} ${num(height)}">`,
      `<rect width="${num(width)}" height="${num(height)}" fill="#ffffff"/>`,
      this.defs.length > 0 ? `<defs>${this.defs.join('')}</defs>` : '',
      ...this.body,
      '</svg>',
    ].join('')
  }

  private dataOf(path: RecordedPath | string | undefined): string {
    if (typeof path !== 'object') return this.path.d
    // A path made before recording began has no data to give: it draws nothing.
    return (path as Partial<RecordedPath>).svgPath?.d ?? ''
  }

  private transformAttr(): string {
    return this.transforms.length > 0 ? ` transform="${this.transforms.join(' ')}"` : ''
  }

  /** One element, inside a group per clip in force (SVG intersects nested clips, as canvas does). */
  private draw(open: string, content?: string): void {
    const s = this as State
    const alpha = s.globalAlpha < 1 ? ` opacity="${num(s.globalAlpha)}"` : ''
    const tag = open.slice(1, open.indexOf(' '))
    const element =
      content === undefined
        ? `${open}${this.transformAttr()}${alpha}/>`
        : `${open}${this.transformAttr()}${alpha}>${content}</${tag}>`
    this.body.push(
      s.clips.reduceRight((inner, id) => `<g clip-path="url(#${id})">${inner}</g>`, element),
    )
  }
}
