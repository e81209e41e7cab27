import type { Page } from '@playwright/test'
import { expect, gridTotal, openDemo, test } from './fixtures'

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
  const before = await gridTotal(page)
  await page.getByTestId('filter-to').fill('')
  await page.getByTestId('filter-from').fill(commit)
  await expect(chips.filter({ hasText: `from ${commit}` })).toHaveCount(1)
  await expect(chips.filter({ hasText: 'to ' })).toHaveCount(0)
  await expect(page.getByTestId('grid-total')).not.toHaveAttribute('data-total', '')
  const from = await gridTotal(page)
  return { before, from }
}

test('rate a worker from a date: only later work changes, and undo restores it', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
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

/**
 * Sends keys within one task, as a fast typist's keys can arrive before the grid's focus event:
 * the race a real keyboard only sometimes wins, every time. Each key goes to the focused element,
 * or to the element `on` names when the focus is to stay where it was (the story view).
 */
async function pressTogether(
  page: Page,
  keys: { key: string; code: string }[],
  on?: string,
): Promise<void> {
  // A script as text: the test's own types know nothing of the page's DOM.
  await page.evaluate(`for (const k of ${JSON.stringify(keys)}) {
    const target = ${on ? `document.querySelector(${JSON.stringify(on)})` : 'document.activeElement'}
    target.dispatchEvent(new KeyboardEvent('keydown', { ...k, bubbles: true, cancelable: true }))
  }`)
}

test('a rating key right after j rates the row focus moved to, in the grid and in the story view', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  const idAt = (index: number) =>
    page.locator(`.ag-row[row-index="${index}"]`).first().getAttribute('row-id')
  const notes = page.getByRole('status')
  const j = { key: 'j', code: 'KeyJ' }

  await page.locator('.ag-row[row-index="2"] .ag-cell[col-id=dimension]').click()
  await pressTogether(page, [j, { key: '2', code: 'Digit2' }])
  await expect(notes.filter({ hasText: `Annotation ${await idAt(3)} rated 2` })).toHaveCount(1)

  await page.keyboard.press('Enter')
  const story = page.getByTestId('story-view')
  await expect(story).toHaveAttribute('data-annotation', `${await idAt(3)}`)
  await pressTogether(page, [j, { key: '1', code: 'Digit1' }], '[data-testid=story-view]')
  await expect(notes.filter({ hasText: `Annotation ${await idAt(4)} rated 1` })).toHaveCount(1)
})

test('Ctrl+Z pressed while a rating is on its way undoes that rating and names it', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  // The rating reaches Winnow at once; its answer is held back, as on a slow machine.
  await page.route('**/api/ratings.rateItems', async (route) => {
    const response = await route.fetch()
    await new Promise((resolve) => setTimeout(resolve, 300))
    await route.fulfill({ response })
  })
  const id = await page.locator('.ag-row[row-index="1"]').first().getAttribute('row-id')
  await page.locator('.ag-row[row-index="1"] .ag-cell[col-id=dimension]').click()
  await page.keyboard.press('3')
  await page.keyboard.press('ControlOrMeta+z')
  const notes = page.getByRole('status')
  await expect(notes.filter({ hasText: `Annotation ${id} rated 3` })).toHaveCount(1)
  await expect(
    notes.filter({ hasText: `Undid “Rated 3: annotation ${id} (1 annotation)”` }),
  ).toHaveCount(1)
  await expect(page.getByTestId('redo')).toBeEnabled()
})
