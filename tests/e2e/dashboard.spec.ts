import { expect, openDemo, test } from './fixtures'

test('the dashboard draws its charts, saves one as PNG, and a heat-map cell opens the grid', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-dashboard').click()
  for (const id of ['chart-volume', 'chart-dimensions', 'chart-ratings', 'chart-tiers']) {
    await expect(page.getByTestId(id).locator('canvas')).toBeVisible()
  }

  const download = page.waitForEvent('download')
  await page.getByTestId('chart-volume-save').click()
  expect((await download).suggestedFilename()).toBe('submissions-per-day.png')
  const svg = page.waitForEvent('download')
  await page.getByTestId('chart-heatmap-save').click()
  expect((await svg).suggestedFilename()).toBe('worker-dimension.svg')

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
