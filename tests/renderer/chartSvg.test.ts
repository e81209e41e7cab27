import { describe, expect, it } from 'vitest'
import { SvgContext, escapeXml } from '../../src/renderer/src/features/dashboard/canvasSvg'
import { PathData } from '../../src/renderer/src/features/dashboard/svgPath'

const path = (draw: (p: PathData) => void) => {
  const p = new PathData()
  draw(p)
  return p
}

describe('canvas path calls as SVG path data', () => {
  it('writes lines, rectangles and curves', () => {
    expect(
      path((p) => {
        p.moveTo(1, 2)
        p.lineTo(3.456, 4)
        p.closePath()
        p.rect(10, 20, 5, 6)
        p.bezierCurveTo(1, 1, 2, 2, 3, 3)
      }).d,
    ).toBe('M1 2L3.46 4ZM10 20h5v6h-5ZC1 1 2 2 3 3')
    // A line with no current point starts the path, as on a canvas.
    expect(path((p) => p.lineTo(5, 5)).d).toBe('M5 5')
  })

  it('draws a full turn as two half arcs, and a quarter clockwise or back', () => {
    expect(path((p) => p.arc(10, 10, 5, 0, 2 * Math.PI)).d).toBe(
      'M15 10A5 5 0 0 1 5 10A5 5 0 0 1 15 10',
    )
    expect(path((p) => p.arc(0, 0, 2, 0, Math.PI / 2)).d).toBe('M2 0A2 2 0 0 1 0 2')
    expect(path((p) => p.arc(0, 0, 2, 0, -Math.PI / 2, true)).d).toBe('M2 0A2 2 0 0 0 0 -2')
    // Three quarters is the large arc; a line joins the arc to the current point.
    expect(
      path((p) => {
        p.moveTo(0, 0)
        p.arc(0, 0, 2, 0, 1.5 * Math.PI)
      }).d,
    ).toBe('M0 0L2 0A2 2 0 1 1 0 -2')
  })

  it('rounds a corner with arcTo between its tangent points', () => {
    // Right along y = 0, then down x = 10: a clockwise corner of radius 2.
    expect(
      path((p) => {
        p.moveTo(0, 0)
        p.arcTo(10, 0, 10, 10, 2)
      }).d,
    ).toBe('M0 0L8 0A2 2 0 0 1 10 2')
    // No radius: a plain corner.
    expect(
      path((p) => {
        p.moveTo(0, 0)
        p.arcTo(10, 0, 10, 10, 0)
      }).d,
    ).toBe('M0 0L10 0')
  })

  it('copies a path as new Path2D(path) does, apart from the original', () => {
    const a = path((p) => p.moveTo(1, 1))
    const b = a.copy()
    b.lineTo(2, 2)
    expect(a.d).toBe('M1 1')
    expect(b.d).toBe('M1 1L2 2')
  })
})

describe('a canvas context that writes SVG', () => {
  it('keeps the state of each drawing call, and restores it', () => {
    const ctx = new SvgContext()
    ctx.fillStyle = 'rgba(47, 95, 208, 0.35)'
    ctx.save()
    ctx.translate(5, 6)
    ctx.rotate(Math.PI / 2)
    ctx.globalAlpha = 0.5
    ctx.beginPath()
    ctx.rect(0, 0, 2, 3)
    ctx.fill()
    ctx.restore()
    ctx.strokeStyle = '#123456'
    ctx.lineWidth = 2
    ctx.setLineDash([4, 2])
    ctx.stroke({ svgPath: path((p) => p.moveTo(1, 1)) })
    const svg = ctx.toSvg(200, 100, { width: 100, height: 50 })
    expect(svg).toContain('width="100" height="50" viewBox="0 0 200 100"')
    expect(svg).toContain(
      '<path d="M0 0h2v3h-2Z" fill="rgba(47, 95, 208, 0.35)" transform="translate(5 6) rotate(90)" opacity="0.5"/>',
    )
    expect(svg).toContain(
      '<path d="M1 1" fill="none" stroke="#123456" stroke-width="2" stroke-linejoin="miter" stroke-linecap="butt" stroke-dasharray="4 2"/>',
    )
  })

  it('writes text with its font, anchor and baseline, escaped', () => {
    const ctx = new SvgContext()
    ctx.font = '12px "Noto Sans", sans-serif'
    ctx.textAlign = 'center'
    ctx.textBaseline = 'top'
    ctx.fillText('a < b & c', 10, 20)
    expect(ctx.toSvg(10, 10)).toContain(
      '<text x="10" y="20" fill="#000000" style="font: 12px &quot;Noto Sans&quot;, sans-serif" text-anchor="middle" dominant-baseline="text-before-edge">a &lt; b &amp; c</text>',
    )
    expect(escapeXml(`'"`)).toBe('&#39;&quot;')
  })

  it('intersects clips as nested groups, each clip path in the transform it was made in', () => {
    const ctx = new SvgContext()
    ctx.save()
    ctx.translate(1, 1)
    ctx.clip({ svgPath: path((p) => p.rect(0, 0, 10, 10)) })
    ctx.clip({ svgPath: path((p) => p.rect(5, 5, 10, 10)) })
    ctx.fill({ svgPath: path((p) => p.rect(0, 0, 20, 20)) })
    ctx.restore()
    ctx.fill({ svgPath: path((p) => p.rect(0, 0, 1, 1)) })
    const svg = ctx.toSvg(20, 20)
    expect(svg).toContain(
      '<clipPath id="clip1" clipPathUnits="userSpaceOnUse"><path d="M0 0h10v10h-10Z" transform="translate(1 1)"/></clipPath>',
    )
    expect(svg).toContain(
      '<g clip-path="url(#clip1)"><g clip-path="url(#clip2)"><path d="M0 0h20v20h-20Z" fill="#000000" transform="translate(1 1)"/></g></g>',
    )
    // After restore, no clip and no transform.
    expect(svg).toContain('<path d="M0 0h1v1h-1Z" fill="#000000"/></svg>')
  })

  it('draws nothing for a path made before recording, or a gradient it cannot write', () => {
    const ctx = new SvgContext()
    ctx.fillStyle = {}
    ctx.fill({} as never)
    expect(ctx.toSvg(1, 1)).toContain('<path d="" fill="none"/>')
  })
})
