import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, openDemo, serve, stop, test } from './fixtures'

test('the dashboard draws its charts, saves each as PNG and as SVG, and a heat-map cell opens the grid', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-dashboard').click()
  for (const id of ['chart-volume', 'chart-dimensions', 'chart-ratings', 'chart-tiers']) {
    await expect(page.getByTestId(id).locator('canvas')).toBeVisible()
  }

  // Every chart saves as PNG and as SVG: a PNG image, and an SVG document of vector shapes and
  // text (the uPlot charts drawn once more as SVG, axis labels included).
  const charts = {
    'chart-volume': 'submissions-per-day',
    'chart-dimensions': 'dimensions-filled',
    'chart-ratings': 'workers-and-contributions-by-rating',
    'chart-tiers': 'effective-tier-share-per-week',
    'chart-heatmap': 'worker-dimension',
  }
  for (const [id, name] of Object.entries(charts)) {
    const png = page.waitForEvent('download')
    await page.getByTestId(`${id}-save-png`).click()
    expect((await png).suggestedFilename()).toBe(`${name}.png`)
    const bytes = readFileSync((await (await png).path()) ?? '')
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')

    const svg = page.waitForEvent('download')
    await page.getByTestId(`${id}-save-svg`).click()
    expect((await svg).suggestedFilename()).toBe(`${name}.svg`)
    const text = readFileSync((await (await svg).path()) ?? '', 'utf8')
    expect(text).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(text).toMatch(/<\/svg>$/)
    expect(text).toMatch(
      id === 'chart-heatmap' ? /<rect [^>]*fill="#[0-9a-f]{6}"/ : /<path [^>]*d=" ?M/,
    )
    expect(text).toContain('<text')
  }
  const dimensionsSvg = page.waitForEvent('download')
  await page.getByTestId('chart-dimensions-save-svg').click()
  const axis = readFileSync((await (await dimensionsSvg).path()) ?? '', 'utf8')
  expect(axis).toMatch(/<text [^>]*>dimension<\/text>/)
  expect(axis).toMatch(/<text [^>]*>\d+%<\/text>/)

  const cell = page.getByTestId('heatmap-cell').nth(12)
  const worker = (await cell.getAttribute('data-worker')) ?? ''
  const dimension = (await cell.getAttribute('data-dimension')) ?? ''
  await cell.click()
  await expect(page.getByTestId('page-review')).toHaveCount(0)
  const chips = page.getByTestId('filter-chip')
  await expect(chips).toHaveCount(2)
  await expect(chips.nth(0)).toContainText(`worker ${worker}`)
  await expect(chips.nth(1)).toContainText(`dimension ${dimension}`)
  await expect(page.getByTestId('grid-total')).not.toContainText('14,061 annotations')
})

/** A saved chart, read back: the PNG's bytes and the SVG's text. */
interface Saved {
  png: Buffer
  svg: string
}

async function saveBoth(page: Page, id: string): Promise<Saved> {
  const png = page.waitForEvent('download')
  await page.getByTestId(`${id}-save-png`).click()
  const pngBytes = readFileSync((await (await png).path()) ?? '')
  const svg = page.waitForEvent('download')
  await page.getByTestId(`${id}-save-svg`).click()
  return { png: pngBytes, svg: readFileSync((await (await svg).path()) ?? '', 'utf8') }
}

/** A PNG's size, from its header (IHDR: width and height after the 16 bytes before them). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/** The SVG document's own size (its root element's width and height). */
function svgSize(svg: string): { width: number; height: number } {
  const root = /^<svg\b[^>]*>/.exec(svg)?.[0] ?? ''
  const attr = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)"`).exec(root)?.[1])
  return { width: attr('width'), height: attr('height') }
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')

/** The SVG's texts with where they stand. */
function svgTexts(svg: string): { text: string; x: number; y: number; anchor: string }[] {
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map(([, attrs = '', body = '']) => ({
    text: unescape(body),
    x: Number(/\sx="(-?[\d.]+)"/.exec(attrs)?.[1]),
    y: Number(/\sy="(-?[\d.]+)"/.exec(attrs)?.[1]),
    anchor: /\stext-anchor="(\w+)"/.exec(attrs)?.[1] ?? 'start',
  }))
}

/** The part of a DOM element the page's checks read (the tests' types have no DOM). */
interface Scrolling {
  scrollHeight: number
  clientHeight: number
  getAttribute(name: string): string | null
  querySelectorAll(selector: string): Iterable<Scrolling>
  ownerDocument: { defaultView: { getComputedStyle(e: Scrolling): { overflowY: string } } }
}

interface Box {
  x0: number
  x1: number
  y0: number
  y1: number
}

const numbersOf = (d: string) => (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number)

/** The plot area: the first clip the chart draws its series inside. */
function plotArea(svg: string): Box {
  const d = /<clipPath\b[^>]*>\s*<path\b[^>]*\sd="([^"]+)"/.exec(svg)?.[1] ?? ''
  const [x0 = NaN, y0 = NaN, x1 = NaN, , , y1 = NaN] = numbersOf(d)
  return { x0, x1, y0, y1 }
}

/** The bars of each bar series (a translucent fill), by fill colour, as boxes. */
function barsOf(svg: string): Map<string, Box[]> {
  const bars = new Map<string, Box[]>()
  for (const [path = ''] of svg.matchAll(/<path\b[^>]*\sfill-opacity="[\d.]+"[^>]*>/g)) {
    const fill = /\sfill="([^"]+)"/.exec(path)?.[1] ?? ''
    const n = numbersOf(/\sd="([^"]+)"/.exec(path)?.[1] ?? '')
    const boxes: Box[] = []
    // uPlot draws each bar as a rectangle: five corners, the first again last.
    for (let i = 0; i + 10 <= n.length; i += 10) {
      const xs = [n[i], n[i + 2], n[i + 4], n[i + 6]] as number[]
      const ys = [n[i + 1], n[i + 3], n[i + 5], n[i + 7]] as number[]
      boxes.push({
        x0: Math.min(...xs),
        x1: Math.max(...xs),
        y0: Math.min(...ys),
        y1: Math.max(...ys),
      })
    }
    bars.set(fill, [...(bars.get(fill) ?? []), ...boxes])
  }
  return bars
}

test('every chart draws every value from zero inside its plot, and saves it with its title and legend at twice the screen size', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-dashboard').click()
  const charts = {
    'chart-volume': { title: 'Submissions per day', legend: ['Submissions'], zero: '0' },
    'chart-dimensions': {
      title: 'Dimensions filled',
      legend: ['all', '3 · Top', '−1 · New worker'],
      zero: '0%',
    },
    'chart-ratings': {
      title: 'Workers and contributions by rating',
      legend: ['workers', 'contributions'],
      zero: '0%',
    },
    'chart-tiers': { title: 'Effective tier share per week', legend: ['3 · Top'], zero: '0%' },
  }
  for (const [id, chart] of Object.entries(charts)) {
    const card = page.getByTestId(id)
    await expect(card.getByRole('heading')).toHaveText(chart.title)
    for (const label of chart.legend) await expect(card.locator('.u-legend')).toContainText(label)
    const screen = (await card.locator('canvas').boundingBox()) ?? { width: 0, height: 0 }
    const { png, svg } = await saveBoth(page, id)

    // Title and legend are in the file; a slide gets at least twice the screen's pixels.
    const texts = svgTexts(svg).map((t) => t.text)
    expect(texts, id).toContain(chart.title)
    for (const label of chart.legend)
      expect(
        texts.some((t) => t.startsWith(label)),
        label,
      ).toBe(true)
    const size = svgSize(svg)
    expect(size.width, id).toBeGreaterThanOrEqual(2 * screen.width)
    const image = pngSize(png)
    expect(image.width, id).toBeGreaterThanOrEqual(2 * screen.width)
    // The PNG is the same picture: title and legend above and below the plot.
    expect(image.height, id).toBeGreaterThan(2 * screen.height)
    expect(Math.abs(image.height / image.width - size.height / size.width), id).toBeLessThan(0.01)

    // Every bar stands inside the plot (none cut off at its first or last position) and rises
    // from the axis's zero.
    const area = plotArea(svg)
    const zero = svgTexts(svg).find((t) => t.text === chart.zero && t.anchor === 'end')
    expect(zero, `${id}: a "${chart.zero}" on the value axis`).toBeDefined()
    for (const [fill, bars] of barsOf(svg)) {
      for (const bar of bars) {
        expect(bar.x0, `${id} ${fill}`).toBeGreaterThanOrEqual(area.x0 - 0.5)
        expect(bar.x1, `${id} ${fill}`).toBeLessThanOrEqual(area.x1 + 0.5)
        expect(Math.abs(bar.y1 - (zero?.y ?? NaN)), `${id} ${fill} bottom`).toBeLessThanOrEqual(1.5)
      }
    }
  }

  // The ratings chart: two bars per rating, each written with its value above it.
  const { svg } = await saveBoth(page, 'chart-ratings')
  const ratingLabels = svgTexts(svg).filter(
    (t) => t.anchor === 'middle' && /^−?\d+(\.\d+)?$/.test(t.text),
  )
  const bars = [...barsOf(svg).values()]
  expect(bars).toHaveLength(2)
  const values = svgTexts(svg).filter((t) => /^\d+(\.\d)?%$/.test(t.text) && t.anchor === 'middle')
  for (const bar of bars.flat()) {
    const over = values.filter((t) => t.x > bar.x0 && t.x < bar.x1 && t.y <= bar.y0)
    expect(over, `a value over the bar at ${bar.x0}`).toHaveLength(1)
  }
  expect(bars[0]).toHaveLength(ratingLabels.length)
  expect(bars[1]).toHaveLength(ratingLabels.length)
})

test('legends name their series before any hover, and the hovered values show by the cursor, counts included', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-dashboard').click()
  for (const id of ['chart-volume', 'chart-dimensions', 'chart-ratings', 'chart-tiers']) {
    const legend = page.getByTestId(id).locator('.u-legend')
    await expect(legend).toBeVisible()
    await expect(legend).not.toContainText('--')
    await expect(page.getByTestId(`${id}-tip`)).toBeHidden()
  }
  await expect(page.getByTestId('chart-volume').locator('.u-legend')).toHaveText(
    /^\s*Submissions\s*$/,
  )

  const volume = page.getByTestId('chart-volume').locator('.u-over')
  await volume.hover()
  const volumeTip = page.getByTestId('chart-volume-tip')
  await expect(volumeTip).toBeVisible()
  await expect(volumeTip).toContainText(/^\d{4}-\d{2}-\d{2}/)
  await expect(volumeTip).toContainText(/Submissions\s*\d+/)

  // The ratings chart's last position (−2 in the demo): its share and its count of annotations,
  // as `winnow stats` counts them.
  const stats = JSON.parse(
    execFileSync(process.execPath, ['out/main/cli.js', 'stats', '--db', demo.dbPath, '--json'], {
      encoding: 'utf8',
    }),
  ) as { annotations: number; byRating: Record<string, number> }
  const lowest = Math.min(
    ...Object.entries(stats.byRating)
      .filter(([k, n]) => k !== 'unrated' && n > 0)
      .map(([k]) => Number(k)),
  )
  const n = stats.byRating[String(lowest)] ?? 0
  const over = page.getByTestId('chart-ratings').locator('.u-over')
  const box = (await over.boundingBox()) ?? { width: 0, height: 0 }
  await over.hover({ position: { x: box.width - 8, y: box.height / 2 } })
  const tip = page.getByTestId('chart-ratings-tip')
  await expect(tip).toContainText(String(lowest).replace('-', '−'))
  await expect(tip).toContainText(
    `contributions${((n / stats.annotations) * 100).toFixed(1)}% (${n.toLocaleString('en-US')} annotations)`,
  )
  await page.mouse.move(0, 0)
  await expect(tip).toBeHidden()
})

test('the worker × dimension map spans the page, says which workers it shows and why, offers the rest, and saves its numbers and key', async ({
  page,
  workDir,
}) => {
  // 6,000 generated submissions: 34 workers, more than the map's first 30.
  const dbPath = join(workDir, 'many.winnow')
  execFileSync(process.execPath, [
    'out/main/cli.js',
    'synth',
    '--db',
    dbPath,
    '--submissions',
    '6000',
    '--seed',
    '7',
  ])
  const { served, child } = await serve(['--db', dbPath], workDir)
  try {
    await page.goto(served.url)
    await page.getByTestId('page-tab-dashboard').click()
    const card = page.getByTestId('chart-heatmap')
    const rows = card.getByTestId('heatmap-row')
    await expect(rows).toHaveCount(30)
    await expect(card.getByTestId('heatmap-note')).toHaveText(
      'The 30 workers with the most annotations, of 34.',
    )

    // A key for the colours, and each cell says what its colour means; shares read as shares.
    const key = card.getByTestId('heatmap-legend')
    await expect(key).toBeVisible()
    await expect(key).toContainText('as the crowd')
    const cell = card.getByTestId('heatmap-cell').first()
    await expect(cell).toHaveText(/^\d+%$/)
    await expect(cell).toHaveAttribute('title', /the crowd's [\d.]+%: [\d.]+× the crowd's share/)

    // The whole width of the page, and no scroll bar of its own.
    const page_ = (await page.getByTestId('dashboard').boundingBox()) ?? { width: 0 }
    const box = (await card.boundingBox()) ?? { width: 0 }
    expect(box.width).toBeGreaterThan(page_.width - 40)
    const scrolls = await card.evaluate((el: Scrolling) =>
      [el, ...el.querySelectorAll('*')].some(
        (e) =>
          /auto|scroll/.test(el.ownerDocument.defaultView.getComputedStyle(e).overflowY) &&
          e.scrollHeight > e.clientHeight + 1,
      ),
    )
    expect(scrolls).toBe(false)

    await card.getByTestId('heatmap-show-all').click()
    await expect(rows).toHaveCount(34)
    await expect(card.getByTestId('heatmap-note')).toHaveText(
      'All 34 workers, the most annotations first.',
    )
    const workers = await rows.evaluateAll((list: Scrolling[]) =>
      list.map((r) => r.getAttribute('data-worker') ?? ''),
    )

    const table = (await card.locator('table').boundingBox()) ?? { width: 0, height: 0 }
    const { png, svg } = await saveBoth(page, 'chart-heatmap')
    const texts = svgTexts(svg).map((t) => t.text)
    expect(texts).toContain('Worker × dimension')
    expect(texts).toContain('All 34 workers, the most annotations first.')
    for (const w of workers) expect(texts).toContain(w)
    // Every cell's number, with its unit, and the crowd's row.
    expect(texts.filter((t) => /^\d+%$/.test(t)).length).toBeGreaterThanOrEqual(34 * 10)
    expect(texts.filter((t) => /^\d+\.\d%$/.test(t)).length).toBeGreaterThanOrEqual(10)
    expect(texts.some((t) => t.includes('as the crowd'))).toBe(true)
    expect(svg).toContain('<linearGradient')
    const size = svgSize(svg)
    expect(size.width).toBeGreaterThanOrEqual(2 * table.width)
    const image = pngSize(png)
    expect(image.width).toBeGreaterThanOrEqual(2 * table.width)
    expect(Math.abs(image.height / image.width - size.height / size.width)).toBeLessThan(0.01)
  } finally {
    await stop(child)
  }
})
