import { Context } from 'svgcanvas'

/** The path calls a chart library makes, on a `Path2D` or on the context's own path. */
export type PathTarget = Pick<
  CanvasPath,
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'rect'
  | 'arc'
  | 'arcTo'
  | 'bezierCurveTo'
  | 'quadraticCurveTo'
>

/** A path object whose calls were kept (`new Path2D()` while a chart is recorded). */
export interface RecordedPath {
  /** Makes the path's calls again, in order, on `target`. */
  traceInto(target: PathTarget): void
}

const SVG_NS = 'http://www.w3.org/2000/svg'

/**
 * svgcanvas's SVG-writing 2D context, taking the path objects a chart passes to fill, stroke and
 * clip: the library draws only its current path, so a passed path is traced into a fresh one
 * first, under the transform in force, as a canvas does. A path made before recording began has
 * no calls to trace and draws nothing. Fill rules are the library's default (nonzero).
 */
export class SvgContext extends Context {
  override fill(path?: RecordedPath | CanvasFillRule): void {
    this.trace(path)
    super.fill()
  }

  override stroke(path?: RecordedPath): void {
    this.trace(path)
    super.stroke()
  }

  override clip(path?: RecordedPath | CanvasFillRule): void {
    this.trace(path)
    super.clip()
  }

  /**
   * The drawing as an SVG document on a white background (the chart's canvas is transparent):
   * the context's pixels as its view box, shown at `size`.
   */
  toSvg(size: { width: number; height: number }): string {
    const svg = this.getSvg()
    svg.setAttribute('width', String(size.width))
    svg.setAttribute('height', String(size.height))
    svg.setAttribute('viewBox', `0 0 ${this.width} ${this.height}`)
    const background = document.createElementNS(SVG_NS, 'rect')
    background.setAttribute('width', String(this.width))
    background.setAttribute('height', String(this.height))
    background.setAttribute('fill', '#ffffff')
    svg.querySelector(':scope > g')?.before(background)
    // The library writes the underline it supports as `text-decoration="undefined"` when unset.
    for (const text of svg.querySelectorAll('[text-decoration="undefined"]')) {
      text.removeAttribute('text-decoration')
    }
    return this.getSerializedSvg()
  }

  private trace(path: RecordedPath | CanvasFillRule | undefined): void {
    if (typeof path !== 'object') return
    this.beginPath()
    ;(path as Partial<RecordedPath>).traceInto?.(this)
  }
}
