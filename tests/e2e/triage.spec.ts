import { expect, openDemo, test } from './fixtures'

test('Today: the day per worker, sorted, a worker opened in review, and a triage queue run for one day', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-today').click()
  const rows = page.getByTestId('today-row')
  await expect(rows.first()).toBeVisible()

  // One day: the demo's last day is the default (no triage yet); pick the day before it.
  const to = await page.getByTestId('today-to').inputValue()
  const day = new Date(Date.parse(`${to}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  await page.getByTestId('today-from').fill(day)
  await page.getByTestId('today-to').fill(day)
  await expect(page.getByTestId('today-from')).toHaveValue(day)
  await expect(page.getByTestId('today-to')).toHaveValue(day)
  await expect(rows.first()).toBeVisible()
  const workers = await rows.count()

  // Sorting by worker id orders the rows by it.
  await page.getByTestId('sort-workerId').click()
  const ids: string[] = []
  for (const row of await rows.all()) ids.push((await row.getAttribute('data-worker')) ?? '')
  expect(ids).toEqual([...ids].sort((a, b) => a.localeCompare(b)))

  // The queue: 5 % of each worker's submissions of the day, at least one each.
  await page.getByTestId('triage-start').click()
  const queue = page.getByTestId('triage-queue')
  await expect(queue).toBeVisible()
  await expect(page.getByTestId('triage-progress')).toContainText(`0 of ${workers} reviewed`)

  // First item: mark its annotations with the keys, write feedback, move on with Enter.
  const item = page.getByTestId('triage-item')
  await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  await page.keyboard.press('g')
  await expect(item.getByTestId('triage-annotation').first()).toHaveAttribute('data-mark', 'good')
  await page.keyboard.press('f')
  await page.keyboard.type('Please fill more dimensions.')
  await page.getByTestId('triage-item').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('triage-progress')).toContainText(`1 of ${workers} reviewed`)

  // Second item (if any): needs work, then step through the rest.
  for (let reviewed = 1; reviewed < workers; reviewed++) {
    await expect(item).toHaveAttribute('data-position', String(reviewed + 1))
    await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
    if (reviewed === 1) {
      await page.keyboard.press('w')
      await expect(item.getByTestId('triage-annotation').first()).toHaveAttribute(
        'data-mark',
        'needs-work',
      )
    }
    await page.keyboard.press('Enter')
  }
  await expect(page.getByTestId('triage-done')).toContainText('Queue finished')
  await expect(page.getByTestId('feedback-sender')).toContainText('Please fill more dimensions.')

  // Back on the day, a worker id opens the review grid on the worker with their panel.
  await queue.getByRole('button', { name: '← Back to the day' }).click()
  const first = await rows.first().getAttribute('data-worker')
  await rows
    .first()
    .getByRole('button', { name: first ?? '' })
    .click()
  await expect(page.getByTestId('worker-panel')).toHaveAttribute('data-worker', first ?? '')
  await expect(page.getByTestId('filter-chip')).toContainText(`worker ${first ?? ''}`)
})

test('a triage queue resumes after the page is reloaded', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-today').click()
  await page.getByTestId('triage-start').click()
  const item = page.getByTestId('triage-item')
  await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  await page.keyboard.press('b')
  await expect(item.getByTestId('triage-annotation').first()).toHaveAttribute('data-mark', 'bad')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('triage-progress')).toContainText('1 of')
  await page.reload()
  await page.getByTestId('page-tab-today').click()
  await page.getByTestId('triage-resume').click()
  await expect(page.getByTestId('triage-progress')).toContainText('1 of')
  await expect(item).toHaveAttribute('data-position', '2')
  // The mark made before the reload is kept on the first item.
  await page.keyboard.press('ArrowLeft')
  await expect(item).toHaveAttribute('data-position', '1')
  await expect(item.getByTestId('triage-annotation').first()).toHaveAttribute('data-mark', 'bad')
})
