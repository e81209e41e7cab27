import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

/** The grid's exact total, once it has been counted. */
async function total(page: Page): Promise<number> {
  await expect(page.getByTestId('grid-total')).not.toHaveAttribute('data-total', '')
  return Number(await page.getByTestId('grid-total').getAttribute('data-total'))
}

async function minusTwoFilter(page: Page, on: boolean): Promise<void> {
  await page.getByTestId('filter-rating').click()
  await page.getByRole('checkbox', { name: 'rating -2' }).setChecked(on)
  await page.keyboard.press('Escape')
}

/** The count of worker 19's annotations rated −2 before and from the commit date. */
async function minusTwoAround(page: Page, commit: string, dayBefore: string) {
  const chips = page.getByTestId('filter-chip')
  await page.getByTestId('filter-from').fill('')
  await page.getByTestId('filter-to').fill(dayBefore)
  await expect(chips.filter({ hasText: `to ${dayBefore}` })).toHaveCount(1)
  await expect(chips.filter({ hasText: 'from ' })).toHaveCount(0)
  await expect(page.getByTestId('grid-total')).not.toHaveAttribute('data-total', '')
  const before = await total(page)
  await page.getByTestId('filter-to').fill('')
  await page.getByTestId('filter-from').fill(commit)
  await expect(chips.filter({ hasText: `from ${commit}` })).toHaveCount(1)
  await expect(chips.filter({ hasText: 'to ' })).toHaveCount(0)
  await expect(page.getByTestId('grid-total')).not.toHaveAttribute('data-total', '')
  const from = await total(page)
  return { before, from }
}

test('rate a worker from a date: only later work changes, and undo restores it', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url)
  await expect(page.getByTestId('grid-total')).toContainText('14,061 annotations')
  await page.getByTestId('filter-worker').fill('19')
  await page.getByTestId('worker-option').first().click()
  await minusTwoFilter(page, true)

  const commit = '2019-10-15'
  const dayBefore = '2019-10-14'
  const start = await minusTwoAround(page, commit, dayBefore)

  // Rate worker 19 at −2 from the commit date, from the worker panel.
  await minusTwoFilter(page, false)
  await page.getByTestId('filter-from').fill('')
  await page.getByTestId('worker-link').first().click()
  const panel = page.getByTestId('worker-panel')
  await expect(panel).toBeVisible()
  await panel.getByTestId('worker-rate').click()
  await page.getByTestId('rate-worker-value').selectOption('-2')
  await page.getByTestId('rate-worker-from').fill(commit)
  await page.getByTestId('rate-worker-save').click()
  await page.getByTestId('panel-close').first().click()
  await minusTwoFilter(page, true)

  await expect
    .poll(async () => (await minusTwoAround(page, commit, dayBefore)).from)
    .toBeGreaterThan(start.from)
  const rated = await minusTwoAround(page, commit, dayBefore)
  expect(rated.before).toBe(start.before)

  await page.getByTestId('undo').click()
  await expect
    .poll(async () => (await minusTwoAround(page, commit, dayBefore)).from)
    .toBe(start.from)
  expect((await minusTwoAround(page, commit, dayBefore)).before).toBe(start.before)
})
