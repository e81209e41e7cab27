/** svgcanvas ships no types: the part of its API the dashboard uses. */
declare module 'svgcanvas' {
  export interface ContextOptions {
    /** The canvas's size in pixels. */
    width?: number
    height?: number
    /** A real 2D context, to measure text with (one of its own canvas otherwise). */
    ctx?: CanvasRenderingContext2D
  }

  /** A stand-in for a canvas's 2D context that builds an SVG document as it is drawn on. */
  export class Context {
    constructor(options?: ContextOptions)
    width: number
    height: number
    fillStyle: string | CanvasGradient | CanvasPattern
    strokeStyle: string | CanvasGradient | CanvasPattern
    lineWidth: number
    lineCap: CanvasLineCap
    lineJoin: CanvasLineJoin
    globalAlpha: number
    font: string
    textAlign: CanvasTextAlign
    textBaseline: CanvasTextBaseline
    save(): void
    restore(): void
    translate(x: number, y: number): void
    rotate(angle: number): void
    scale(x: number, y?: number): void
    setLineDash(segments: number[]): void
    clearRect(x: number, y: number, w: number, h: number): void
    beginPath(): void
    moveTo(x: number, y: number): void
    lineTo(x: number, y: number): void
    closePath(): void
    rect(x: number, y: number, w: number, h: number): void
    arc(x: number, y: number, radius: number, start: number, end: number, ccw?: boolean): void
    arcTo(x1: number, y1: number, x2: number, y2: number, radius: number): void
    bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void
    quadraticCurveTo(cx: number, cy: number, x: number, y: number): void
    /** These draw the current path only (the library has no Path2D). */
    fill(): void
    stroke(): void
    clip(): void
    fillText(text: string, x: number, y: number): void
    measureText(text: string): TextMetrics
    /** The document being built. */
    getSvg(): SVGSVGElement
    getSerializedSvg(fixNamedEntities?: boolean): string
  }
}
