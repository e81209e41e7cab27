import Database from 'better-sqlite3'
import type { Page } from '@playwright/test'
import { expect, gridTotal, openDemo, test } from './fixtures'

const ALL = 14_061

async function ratingFilter(page: Page, rating: string, on: boolean): Promise<void> {
  await page.getByTestId('filter-rating').click()
  await page.getByRole('checkbox', { name: `rating ${rating}` }).setChecked(on)
  await page.keyboard.press('Escape')
}

/** Selects every row of the query and opens "Rate…" at the scale's `nth` level, then previews. */
async function rateAll(page: Page, nth: number): Promise<void> {
  await page.locator('.ag-row').first().click()
  await page.keyboard.press('ControlOrMeta+a')
  await expect(page.getByTestId('selection-count')).toContainText('All 14,061 rows')
  await page.getByTestId('bulk-rate').click()
  await page.getByTestId('bulk-rate-option').nth(nth).click()
  // The preview runs as a job on a worker thread too.
  await expect(page.getByTestId('rating-preview-count')).toBeVisible({ timeout: 30_000 })
}

/**
 * Another program holds the project's write lock, so the job waits at its first step long enough
 * for the test to see it; released after `whileHeld`.
 */
async function withWriteLockHeld(dbPath: string, whileHeld: () => Promise<void>): Promise<void> {
  const holder = new Database(dbPath)
  holder.exec('BEGIN IMMEDIATE')
  try {
    await whileHeld()
  } finally {
    holder.exec('ROLLBACK')
    holder.close()
  }
}

test('a bulk rating of a whole query runs as a job: progress, then the grid shows it', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await ratingFilter(page, '3', true)
  const top = await gridTotal(page)
  expect(top).toBeLessThan(ALL)
  await ratingFilter(page, '3', false)
  await expect.poll(() => gridTotal(page)).toBe(ALL)

  // Cancelled while it runs: the dialog closes, nothing changed.
  await rateAll(page, 0)
  await withWriteLockHeld(demo.dbPath, async () => {
    await page.getByTestId('rating-confirm-button').click()
    await expect(page.getByTestId('write-job-progress')).toBeVisible()
    await page.getByTestId('write-job-cancel').click()
  })
  await expect(page.getByTestId('rating-confirm')).toHaveCount(0)
  await expect(page.getByText('Cancelled; nothing was changed.').first()).toBeVisible()
  await ratingFilter(page, '3', true)
  await expect.poll(() => gridTotal(page)).toBe(top)
  await ratingFilter(page, '3', false)

  // Confirmed: the job shows its progress in the dialog and in the tray, then the grid updates.
  await rateAll(page, 0)
  await withWriteLockHeld(demo.dbPath, async () => {
    await page.getByTestId('rating-confirm-button').click()
    await expect(page.getByTestId('write-job-progress')).toBeVisible()
    await expect(page.getByTestId('job-tray')).toContainText('Rating 3')
  })
  await expect(page.getByTestId('rating-confirm')).toHaveCount(0)
  // The tray lists the previews' jobs too: the rating's own summary is among them.
  await expect(
    page.getByTestId('job-summary').filter({ hasText: 'annotations changed rating' }),
  ).toHaveCount(1)
  await page.keyboard.press('Escape')
  await ratingFilter(page, '3', true)
  await expect.poll(() => gridTotal(page)).toBe(ALL)
})
