import type { Page } from '@playwright/test'
import { expect, openDemo, test } from './fixtures'

/** Starts a triage queue on Today's default days and waits for its first item's story. */
async function startQueue(page: Page): Promise<void> {
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today-row').first()).toBeVisible()
  await page.getByTestId('triage-start').click()
  await expect(
    page.getByTestId('triage-item').getByTestId('story-sentence-highlight'),
  ).toBeVisible()
}

test('triage marks land on the annotation picked, and a note on the mark it was written for', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await startQueue(page)
  const item = page.getByTestId('triage-item')
  const annotations = item.getByTestId('triage-annotation')
  // An item with at least three annotations (Enter goes on to the next one).
  while ((await annotations.count()) < 3) {
    const position = Number(await item.getAttribute('data-position'))
    await page.keyboard.press('Enter')
    await expect(item).toHaveAttribute('data-position', String(position + 1))
    await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  }
  const position = (await item.getAttribute('data-position')) ?? ''
  const [first, second, third] = [annotations.nth(0), annotations.nth(1), annotations.nth(2)]

  // g marks the picked annotation, and the pick stays on it.
  await page.keyboard.press('g')
  await expect(first).toHaveAttribute('data-mark', 'good')
  await expect(first).toHaveAttribute('aria-current', 'true')
  // j picks the next; w marks it; n writes that mark's note, saved on Enter.
  await page.keyboard.press('j')
  await expect(second).toHaveAttribute('aria-current', 'true')
  await page.keyboard.press('w')
  await expect(second).toHaveAttribute('data-mark', 'needs-work')
  await page.keyboard.press('n')
  await expect(second.getByTestId('triage-note')).toBeFocused()
  await page.keyboard.type('the cause is vague')
  await page.keyboard.press('Enter')
  await expect(second).toContainText('needs work: the cause is vague')
  // b on the next annotation marks it alone, without the note.
  await page.keyboard.press('j')
  await page.keyboard.press('b')
  await expect(third).toHaveAttribute('data-mark', 'bad')
  await expect(third.getByTestId('triage-note')).toHaveValue('')
  await expect(first).toHaveAttribute('data-mark', 'good')
  await expect(first).not.toContainText(':')
  await expect(second).toHaveAttribute('data-mark', 'needs-work')
  for (const other of (await annotations.all()).slice(3))
    await expect(other).toHaveAttribute('data-mark', '')

  // Written so: the queue, reopened, has the same marks and notes.
  await page.keyboard.press('Escape')
  await page.getByTestId('triage-resume').click()
  await expect(item).toHaveAttribute('data-position', position)
  await expect(annotations.nth(0)).toHaveAttribute('data-mark', 'good')
  await expect(annotations.nth(1)).toContainText('needs work: the cause is vague')
  await expect(annotations.nth(2)).toHaveAttribute('data-mark', 'bad')
  await expect(annotations.nth(2)).not.toContainText('vague')
})

test('Rate worker… from a queue defaults the commit date to the day being triaged, and says what it means', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today-row').first()).toBeVisible()
  const day = await page.getByTestId('today-from').inputValue()
  await expect(page.getByTestId('today-to')).toHaveValue(day)
  await startQueue(page)

  await page.keyboard.press('r')
  const dialog = page.getByTestId('rate-worker-dialog')
  await expect(page.getByTestId('rate-worker-from')).toHaveValue(day)
  const meaning = page.getByTestId('rate-worker-from-meaning')
  await expect(meaning).toContainText(
    `applies to this worker’s submissions of ${day} (the day being triaged) and after, until their next commit date`,
  )
  // From that day the rating reaches the work being triaged; from today (the demo is of 2019), none.
  await page.getByTestId('rate-worker-value').selectOption('-2')
  await expect(page.getByTestId('rating-preview-count')).toContainText(
    /^[1-9][\d,]* annotations? of this worker will change effective rating/,
  )
  await dialog.getByTestId('rate-worker-day').filter({ hasText: 'today' }).click()
  await expect(meaning).toContainText('(today) and after')
  await expect(page.getByTestId('rating-preview-count')).toContainText(/^0 annotations of/)
  await dialog.getByTestId('rate-worker-day').filter({ hasText: 'being triaged' }).click()
  await expect(page.getByTestId('rate-worker-from')).toHaveValue(day)
  await page.getByTestId('rate-worker-save').click()
  await expect(dialog).toHaveCount(0)
  await expect(
    page.getByRole('status').filter({ hasText: new RegExp(`rated −2 .*from ${day}:`) }),
  ).toHaveCount(1)
})
