import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { releaseCsv } from '../helpers/glucose'
import { expect, openDemo, serve, stop, test } from './fixtures'

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

test('one worker’s one submission: words in the singular, Median time “–” with why, and the queue’s end page sums up its marks', async ({
  page,
  workDir,
}) => {
  const dbPath = join(workDir, 'one.winnow')
  execFileSync(process.execPath, [
    'out/main/cli.js',
    'import',
    releaseCsv(workDir, 'one.csv', 1, 5),
    '--db',
    dbPath,
  ])
  const { served, child } = await serve(['--db', dbPath], workDir)
  await page.goto(served.url)
  const counts = page.getByTestId('status-counts')
  await expect(counts).toContainText(/^1 submission · [\d,]+ annotations? · 1 worker · 1 story$/)

  // Release files carry no MTurk times: the median reads “–” and the page says what that means.
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today-row')).toHaveCount(1)
  await expect(page.getByTestId('today-median')).toHaveText('–')
  await expect(page.getByTestId('today-untimed')).toContainText(
    'these submissions carry no MTurk accept and submit times',
  )
  await expect(page.getByTestId('today-untimed')).toContainText(
    '“rushing” rests on the share of minimal submissions alone (at least 50% with ≤ 2 dimensions)',
  )

  // The queue: its one submission marked good, with feedback; the end page sums the marks up.
  await page.getByTestId('triage-start').click()
  const item = page.getByTestId('triage-item')
  await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  const annotations = await item.getByTestId('triage-annotation').count()
  await page.keyboard.press('g')
  await expect(item.getByTestId('triage-annotation').first()).toHaveAttribute('data-mark', 'good')
  await page.keyboard.press('f')
  await page.keyboard.type('Thank you.')
  await page.keyboard.press('Escape')
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('triage-done')).toContainText('Queue finished')
  await expect(page.getByTestId('triage-summary-total')).toHaveText(
    `1 good · 0 needs work · 0 bad · ${annotations - 1} unmarked, of ${annotations === 1 ? '1 annotation' : `${annotations} annotations`} in 1 submission (1 reviewed).`,
  )
  const worker = page.getByTestId('triage-summary-worker')
  await expect(worker).toHaveCount(1)
  await expect(worker.locator('[data-mark=good]')).toHaveText('1')
  await expect(worker.locator('[data-mark=bad]')).toHaveText('0')
  await expect(page.getByTestId('feedback-sender')).toContainText('Send through MTurk (1 worker)')

  // The command line says the same in the singular.
  const triage = execFileSync(process.execPath, ['out/main/cli.js', 'triage', '--db', dbPath], {
    encoding: 'utf8',
  })
  expect(triage).toMatch(/: 1 worker\n/)
  expect(triage).toMatch(/\t1 submission\t/)
  expect(triage).toContain('– : no MTurk accept and submit times in the files')
  await stop(child)
})
