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
  await page.keyboard.press('Escape')
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

test('every step of a triage queue from the keyboard: digits rate as in the grid with their map, Undo, a mark with a note, feedback, the worker dialog, Esc', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today-row').first()).toBeVisible()
  await page.getByTestId('triage-start').focus()
  await page.keyboard.press('Enter')
  const item = page.getByTestId('triage-item')
  await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  const annotations = item.getByTestId('triage-annotation')
  const first = annotations.first()
  const notes = page.getByRole('status')

  // The picked annotation shows the digit → rating map of the review story view.
  await expect(first.getByTestId('rate-key').filter({ hasText: '4' })).toContainText('Fair+')
  await expect(annotations.nth(1).getByTestId('rate-key')).toHaveCount(0)
  await page.keyboard.press('8')
  await expect(notes.filter({ hasText: 'Key 8 has no rating' })).toContainText('4 → 1.5 Fair+')

  // A digit rates the picked annotation, Ctrl+Z takes it back.
  const before = (await first.getAttribute('data-rating')) ?? ''
  await page.keyboard.press('4')
  await expect(first).toHaveAttribute('data-rating', '1.5')
  await expect(notes.filter({ hasText: 'rated 1.5' }).getByTestId('toast-undo')).toBeVisible()
  await page.keyboard.press('Control+z')
  await expect(first).toHaveAttribute('data-rating', before)

  // Shift+digit rates the whole submission; the note's Undo takes that back.
  await page.keyboard.press('Shift+5')
  const count = await annotations.count()
  for (let i = 0; i < count; i++)
    await expect(annotations.nth(i)).toHaveAttribute('data-rating', '-1')
  await notes.filter({ hasText: 'rated −1' }).getByTestId('toast-undo').click()
  await expect(first).toHaveAttribute('data-rating', before)

  // ↓ picks the next annotation; n writes a note, Enter returns to the keys, b marks with it.
  await page.keyboard.press('ArrowDown')
  const picked = count > 1 ? annotations.nth(1) : first
  await expect(picked).toHaveAttribute('aria-current', 'true')
  await page.keyboard.press('n')
  await expect(picked.getByTestId('triage-note')).toBeFocused()
  await page.keyboard.type('vague')
  await page.keyboard.press('Enter')
  await page.keyboard.press('b')
  await expect(picked).toHaveAttribute('data-mark', 'bad')
  await expect(picked).toContainText('bad: vague')

  // r opens the worker's rating dialog, Esc closes it and the queue keys work again.
  await page.keyboard.press('r')
  await expect(page.getByTestId('rate-worker-dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('rate-worker-dialog')).toHaveCount(0)

  // f writes feedback, Esc leaves the field (saving it), Enter moves on, Esc leaves the queue.
  await page.keyboard.press('f')
  await page.keyboard.type('Say what caused it.')
  await page.keyboard.press('Escape')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('triage-progress')).toContainText('1 of')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('today-table')).toBeVisible()

  // Resumed, the first item kept its feedback and its mark.
  await page.getByTestId('triage-resume').focus()
  await page.keyboard.press('Enter')
  await expect(item).toHaveAttribute('data-position', '2')
  await page.keyboard.press('ArrowLeft')
  await expect(item).toHaveAttribute('data-position', '1')
  await expect(page.getByTestId('triage-feedback')).toHaveValue('Say what caused it.')
  await expect(picked).toHaveAttribute('data-mark', 'bad')
})

test('Today opens on the days since the last triage, and the flags follow thresholds changed in the app', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-today').click()
  const from = page.getByTestId('today-from')
  const to = page.getByTestId('today-to')
  const rows = page.getByTestId('today-row')
  // Before any triage: the last day with submissions.
  await expect(rows.first()).toBeVisible()
  const last = await to.inputValue()
  await expect(from).toHaveValue(last)
  await expect(page.getByTestId('today')).toContainText('no triage yet')

  // A queue for the day two days before the last…
  const dayBefore = (n: number) =>
    new Date(Date.parse(`${last}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)
  await from.fill(dayBefore(2))
  await to.fill(dayBefore(2))
  await expect(from).toHaveValue(dayBefore(2))
  await page.getByTestId('triage-start').click()
  await expect(page.getByTestId('triage-item')).toBeVisible()
  await page.keyboard.press('Escape')

  // …and the page, opened afresh, covers the days after it up to the last.
  await page.reload()
  await page.getByTestId('page-tab-today').click()
  await expect(from).toHaveValue(dayBefore(1))
  await expect(to).toHaveValue(last)
  await expect(page.getByTestId('today')).toContainText(`last triage up to ${dayBefore(2)}`)
  await expect(rows.first()).toBeVisible()
  const workers = await rows.count()

  // The thresholds, changed and saved on the page, set the flags.
  await page.getByText('Flag thresholds and queue share').click()
  await page.getByTestId('setting-newWorkerDays').fill('0')
  await page.getByTestId('setting-rushMinimalPercent').fill('0')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(rows.and(page.locator('[data-flags~="rushing"]'))).toHaveCount(workers)
  await expect(rows.and(page.locator('[data-flags~="new"]'))).toHaveCount(0)

  await page.getByTestId('setting-newWorkerDays').fill('365')
  await page.getByTestId('setting-rushSeconds').fill('0')
  await page.getByTestId('setting-rushMinimalPercent').fill('100')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(rows.and(page.locator('[data-flags~="new"]'))).toHaveCount(workers)

  // Saved with the project: the same after a reload.
  await page.reload()
  await page.getByTestId('page-tab-today').click()
  await page.getByText('Flag thresholds and queue share').click()
  await expect(page.getByTestId('setting-newWorkerDays')).toHaveValue('365')
  await expect(page.getByTestId('setting-rushMinimalPercent')).toHaveValue('100')
  await expect(rows.and(page.locator('[data-flags~="new"]'))).toHaveCount(workers)
})
