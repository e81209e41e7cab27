import { readFileSync } from 'node:fs'
import { expect, openDemo, test } from './fixtures'

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
    expect(text).toMatch(id === 'chart-heatmap' ? /<rect [^>]*fill="rgb/ : /<path [^>]*d=" ?M/)
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
