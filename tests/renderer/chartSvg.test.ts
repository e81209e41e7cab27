// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import {
  type PathTarget,
  type RecordedPath,
  SvgContext,
} from '../../src/renderer/src/features/dashboard/svgContext'

/** A path as the chart makes one while it is recorded: calls to make again on the context. */
const path = (calls: (t: PathTarget) => void): RecordedPath => ({ traceInto: calls })

const parse = (svg: string) => new DOMParser().parseFromString(svg, 'image/svg+xml')

/** The numbers of a path's data, whatever its spacing. */
const numbers = (el: Element | null | undefined) =>
  (el?.getAttribute('d')?.match(/-?\d+(\.\d+)?/g) ?? []).map(Number)

/** The clip paths an element is drawn inside, outermost first, by their path's numbers. */
const clipsOf = (doc: Document, el: Element) => {
  const clips: number[][] = []
  for (let at = el.parentElement; at; at = at.parentElement) {
    const id = /url\(#(.+)\)/.exec(at.getAttribute('clip-path') ?? '')?.[1]
    if (id) clips.unshift(numbers(doc.getElementById(id)?.querySelector('path')))
  }
  return clips
}

describe('the SVG context the charts are drawn into', () => {
  it('draws the paths passed to fill and stroke, under the transform in force', () => {
    const ctx = new SvgContext({ width: 200, height: 100 })
    ctx.fillStyle = 'rgba(47, 95, 208, 0.35)'
    ctx.save()
    ctx.translate(5, 6)
    ctx.fill(path((t) => t.rect(0, 0, 2, 3)))
    ctx.restore()
    ctx.strokeStyle = '#123456'
    ctx.lineWidth = 2
    ctx.setLineDash([4, 2])
    ctx.stroke(
      path((t) => {
        t.moveTo(1, 1)
        t.lineTo(9, 1)
      }),
    )
    const [filled, stroked] = parse(ctx.toSvg({ width: 100, height: 50 })).querySelectorAll('path')
    expect(numbers(filled)).toEqual([5, 6, 7, 6, 7, 9, 5, 9, 5, 6])
    expect(filled?.getAttribute('fill')).toBe('rgb(47,95,208)')
    expect(filled?.getAttribute('fill-opacity')).toBe('0.35')
    expect(numbers(stroked)).toEqual([1, 1, 9, 1])
    expect(stroked?.getAttribute('stroke')).toBe('#123456')
    expect(stroked?.getAttribute('stroke-width')).toBe('2')
    expect(stroked?.getAttribute('stroke-dasharray')).toBe('4,2')
  })

  it('intersects clips in force, each in the transform it was made in, until restore', () => {
    const ctx = new SvgContext({ width: 20, height: 20 })
    ctx.save()
    ctx.translate(1, 1)
    ctx.clip(path((t) => t.rect(0, 0, 10, 10)))
    ctx.clip(path((t) => t.rect(5, 5, 10, 10)))
    ctx.fill(path((t) => t.rect(0, 0, 20, 20)))
    ctx.restore()
    ctx.fill(path((t) => t.rect(0, 0, 1, 1)))
    const doc = parse(ctx.toSvg({ width: 20, height: 20 }))
    const drawn = [...doc.querySelectorAll('path')].filter((p) => !p.closest('clipPath'))
    expect(drawn.map(numbers)).toEqual([
      [1, 1, 21, 1, 21, 21, 1, 21, 1, 1],
      [0, 0, 1, 0, 1, 1, 0, 1, 0, 0],
    ])
    expect(clipsOf(doc, drawn[0]!)).toEqual([
      [1, 1, 11, 1, 11, 11, 1, 11, 1, 1],
      [6, 6, 16, 6, 16, 16, 6, 16, 6, 6],
    ])
    expect(clipsOf(doc, drawn[1]!)).toEqual([])
  })

  it('draws its own current path too, as the axes do', () => {
    const ctx = new SvgContext({ width: 10, height: 10 })
    ctx.beginPath()
    ctx.moveTo(0, 2)
    ctx.lineTo(10, 2)
    ctx.stroke()
    const drawn = [...parse(ctx.toSvg({ width: 10, height: 10 })).querySelectorAll('path[d]')]
    expect(drawn.map(numbers)).toEqual([[0, 2, 10, 2]])
  })

  it('draws nothing for a path made before recording began', () => {
    const ctx = new SvgContext({ width: 10, height: 10 })
    ctx.fill({} as RecordedPath)
    const drawn = [...parse(ctx.toSvg({ width: 10, height: 10 })).querySelectorAll('path')]
    expect(drawn.flatMap(numbers)).toEqual([])
  })

  it('writes text as text, escaped, with its font, anchor and transform', () => {
    const ctx = new SvgContext({ width: 100, height: 100 })
    const label = '</text><script>alert(1)</script> a < b & "c"'
    ctx.font = '12px "Noto Sans", sans-serif'
    ctx.textAlign = 'center'
    ctx.save()
    ctx.translate(10, 20)
    ctx.fillText(label, 0, 0)
    ctx.restore()
    const svg = ctx.toSvg({ width: 100, height: 100 })
    expect(svg).not.toContain('<script')
    const doc = parse(svg)
    expect(doc.querySelectorAll('script')).toHaveLength(0)
    const [text, ...more] = doc.querySelectorAll('text')
    expect(more).toHaveLength(0)
    expect(text?.textContent).toBe(label)
    expect(text?.getAttribute('font-family')).toBe('"Noto Sans", sans-serif')
    expect(text?.getAttribute('font-size')).toBe('12px')
    expect(text?.getAttribute('text-anchor')).toBe('middle')
    expect(text?.getAttribute('transform')).toBe('matrix(1 0 0 1 10 20)')
    expect(text?.hasAttribute('text-decoration')).toBe(false)
  })

  it('is a document of the canvas pixels shown at the chart size, on white', () => {
    const ctx = new SvgContext({ width: 400, height: 220 })
    ctx.fill(path((t) => t.rect(0, 0, 1, 1)))
    const svg = ctx.toSvg({ width: 200, height: 110 })
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    const root = parse(svg).documentElement
    expect(root.getAttribute('width')).toBe('200')
    expect(root.getAttribute('height')).toBe('110')
    expect(root.getAttribute('viewBox')).toBe('0 0 400 220')
    // The white background comes before the drawing, below it.
    const drawing = [...root.children].filter((el) => el.tagName !== 'defs')
    expect(drawing[0]?.tagName).toBe('rect')
    expect(drawing[0]?.getAttribute('fill')).toBe('#ffffff')
    expect(drawing[0]?.getAttribute('width')).toBe('400')
    expect(drawing[1]?.querySelector('path')).not.toBeNull()
  })
})
