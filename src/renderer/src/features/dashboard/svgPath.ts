/**
 * The SVG path data of what a chart library draws with the canvas path calls (moveTo, lineTo,
 * rect, arc, arcTo, curves): the same shape, written as `d`. Pure, so it is tested without a page.
 */

type Point = [number, number]

const TAU = 2 * Math.PI

/** Numbers as short as they stay exact to a hundredth of a pixel. */
export function num(x: number): string {
  return String(Math.round(x * 100) / 100)
}

export class PathData {
  private parts: string[] = []
  /** Where the path is now and where its subpath began, once anything was drawn. */
  private point: Point | null = null
  private start: Point | null = null

  /** A copy, as `new Path2D(path)` makes one. */
  copy(): PathData {
    const out = new PathData()
    out.parts = [...this.parts]
    out.point = this.point
    out.start = this.start
    return out
  }

  get d(): string {
    return this.parts.join('')
  }

  moveTo(x: number, y: number): void {
    this.parts.push(`M${num(x)} ${num(y)}`)
    this.point = [x, y]
    this.start = [x, y]
  }

  lineTo(x: number, y: number): void {
    // Canvas: a lineTo with no current point starts the subpath there.
    if (!this.point) return this.moveTo(x, y)
    this.parts.push(`L${num(x)} ${num(y)}`)
    this.point = [x, y]
  }

  closePath(): void {
    if (!this.point) return
    this.parts.push('Z')
    this.point = this.start
  }

  rect(x: number, y: number, w: number, h: number): void {
    this.parts.push(`M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}Z`)
    this.point = [x, y]
    this.start = [x, y]
  }

  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void {
    if (!this.point) this.moveTo(c1x, c1y)
    this.parts.push(`C${[c1x, c1y, c2x, c2y, x, y].map(num).join(' ')}`)
    this.point = [x, y]
  }

  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void {
    if (!this.point) this.moveTo(cx, cy)
    this.parts.push(`Q${[cx, cy, x, y].map(num).join(' ')}`)
    this.point = [x, y]
  }

  /** A canvas arc: a line to its start, then the arc (a full turn as two halves). */
  arc(x: number, y: number, r: number, from: number, to: number, counterclockwise = false): void {
    const at = (a: number): Point => [x + r * Math.cos(a), y + r * Math.sin(a)]
    const [sx, sy] = at(from)
    if (this.point) this.lineTo(sx, sy)
    else this.moveTo(sx, sy)
    const turn = counterclockwise ? from - to : to - from
    const sweep = counterclockwise ? 0 : 1
    if (r <= 0) return
    if (turn >= TAU) {
      const half = from + (counterclockwise ? -Math.PI : Math.PI)
      this.arcSegment(r, false, sweep, at(half))
      this.arcSegment(r, false, sweep, at(from))
      return
    }
    const span = ((turn % TAU) + TAU) % TAU
    if (span === 0) return
    this.arcSegment(r, span > Math.PI, sweep, at(counterclockwise ? from - span : from + span))
  }

  /** A canvas arcTo: a line to the first tangent point, then the rounded corner to the second. */
  arcTo(x1: number, y1: number, x2: number, y2: number, r: number): void {
    if (!this.point) return this.moveTo(x1, y1)
    const [x0, y0] = this.point
    const v1: Point = [x0 - x1, y0 - y1]
    const v2: Point = [x2 - x1, y2 - y1]
    const l1 = Math.hypot(...v1)
    const l2 = Math.hypot(...v2)
    const cross = v1[0] * v2[1] - v1[1] * v2[0]
    if (r <= 0 || l1 === 0 || l2 === 0 || Math.abs(cross) < 1e-9) return this.lineTo(x1, y1)
    const angle = Math.acos(Math.max(-1, Math.min(1, (v1[0] * v2[0] + v1[1] * v2[1]) / (l1 * l2))))
    const t = r / Math.tan(angle / 2)
    this.lineTo(x1 + (v1[0] / l1) * t, y1 + (v1[1] / l1) * t)
    // Turning right on screen (y down) is a clockwise corner: SVG's sweep flag 1.
    this.arcSegment(r, false, cross < 0 ? 1 : 0, [x1 + (v2[0] / l2) * t, y1 + (v2[1] / l2) * t])
  }

  private arcSegment(r: number, large: boolean, sweep: 0 | 1, [x, y]: Point): void {
    this.parts.push(`A${num(r)} ${num(r)} 0 ${large ? 1 : 0} ${sweep} ${num(x)} ${num(y)}`)
    this.point = [x, y]
  }
}
