import uPlot from 'uplot'
import { type PathTarget, type RecordedPath, SvgContext } from './svgContext'

/** A real Path2D that also keeps its calls, for the drawing made while a chart is recorded. */
class RecordingPath2D extends Path2D implements RecordedPath {
  private readonly calls: ((target: PathTarget) => void)[]

  constructor(init?: Path2D | string) {
    super(init)
    this.calls = init instanceof RecordingPath2D ? [...init.calls] : []
  }
  traceInto(target: PathTarget): void {
    for (const call of this.calls) call(target)
  }
  override moveTo(x: number, y: number): void {
    super.moveTo(x, y)
    this.calls.push((t) => t.moveTo(x, y))
  }
  override lineTo(x: number, y: number): void {
    super.lineTo(x, y)
    this.calls.push((t) => t.lineTo(x, y))
  }
  override closePath(): void {
    super.closePath()
    this.calls.push((t) => t.closePath())
  }
  override rect(x: number, y: number, w: number, h: number): void {
    super.rect(x, y, w, h)
    this.calls.push((t) => t.rect(x, y, w, h))
  }
  override bezierCurveTo(a: number, b: number, c: number, d: number, x: number, y: number): void {
    super.bezierCurveTo(a, b, c, d, x, y)
    this.calls.push((t) => t.bezierCurveTo(a, b, c, d, x, y))
  }
  override quadraticCurveTo(cx: number, cy: number, x: number, y: number): void {
    super.quadraticCurveTo(cx, cy, x, y)
    this.calls.push((t) => t.quadraticCurveTo(cx, cy, x, y))
  }
  override arc(x: number, y: number, r: number, a: number, b: number, ccw?: boolean): void {
    super.arc(x, y, r, a, b, ccw)
    this.calls.push((t) => t.arc(x, y, r, a, b, ccw))
  }
  override arcTo(x1: number, y1: number, x2: number, y2: number, r: number): void {
    super.arcTo(x1, y1, x2, y2, r)
    this.calls.push((t) => t.arcTo(x1, y1, x2, y2, r))
  }
}

/**
 * A uPlot chart as an SVG document: the same options and data drawn once more, off screen, into
 * a context that writes SVG (uPlot draws only on canvas). Its paths are made while the drawing
 * runs, so `Path2D` records until uPlot says it has drawn.
 */
export async function plotSvg(
  options: Omit<uPlot.Options, 'width' | 'height'>,
  data: uPlot.AlignedData,
  size: { width: number; height: number },
): Promise<string> {
  // uPlot sizes its canvas in device pixels, rounded so: the SVG's drawing space, shown at the
  // chart's size. The same size lets the clear before uPlot's drawing empty the SVG.
  const context = new SvgContext({
    width: Math.round(size.width * uPlot.pxRatio),
    height: Math.round(size.height * uPlot.pxRatio),
  })
  const host = document.createElement('div')
  host.style.cssText = 'position: fixed; left: -100000px; top: 0'
  document.body.append(host)
  const prototype = HTMLCanvasElement.prototype as unknown as {
    getContext: (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) => unknown
  }
  const getContext = prototype.getContext
  const NativePath2D = window.Path2D
  let plot: uPlot | null = null
  try {
    const drawn = new Promise<void>((resolve) => {
      // Last of the draw hooks: the plugins' drawing (bar labels) is in the SVG by then.
      const plugins = [...(options.plugins ?? []), { hooks: { draw: () => resolve() } }]
      window.Path2D = RecordingPath2D
      prototype.getContext = function (this: HTMLCanvasElement, kind, ...rest) {
        return kind === '2d' ? context : getContext.call(this, kind, ...rest)
      }
      try {
        // The file draws its own legend: uPlot's is a table in the page.
        plot = new uPlot({ ...options, plugins, legend: { show: false }, ...size }, data, host)
      } finally {
        prototype.getContext = getContext
      }
    })
    await drawn
    return context.toSvg(size)
  } finally {
    window.Path2D = NativePath2D
    ;(plot as uPlot | null)?.destroy()
    host.remove()
  }
}
