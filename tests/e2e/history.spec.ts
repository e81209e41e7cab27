import { expect, openDemo, test } from './fixtures'
import { drawAudit } from './audit'

test('a triage mark is a change set: History lists it, and Ctrl+Z undoes it in the queue and from the review page', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today-row').first()).toBeVisible()
  await page.getByTestId('triage-start').click()
  const item = page.getByTestId('triage-item')
  await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  const first = item.getByTestId('triage-annotation').first()
  const notes = page.getByRole('status')

  // In the queue: g marks the picked annotation, Ctrl+Z takes the mark back.
  await page.keyboard.press('g')
  await expect(first).toHaveAttribute('data-mark', 'good')
  await page.keyboard.press('Control+z')
  await expect(notes.filter({ hasText: 'Undid “Marked good: submission' })).toBeVisible()
  await expect(first).toHaveAttribute('data-mark', '')

  // A note written now waits for the annotation's next mark: the undone one stays undone.
  await page.keyboard.press('n')
  await page.keyboard.type('later')
  await page.keyboard.press('Enter')
  await page.keyboard.press('b')
  await expect(first).toHaveAttribute('data-mark', 'bad')
  await expect(first).toContainText('bad: later')
  await page.getByTestId('page-tab-review').click()
  await page.getByTestId('history-button').click()
  const items = page.getByTestId('history-item')
  await expect(items.first().getByTestId('history-kind')).toHaveText('triage')
  await expect(items.first().getByTestId('history-description')).toHaveText(
    /^Marked bad: submission \d+, dimension \d+ \(triage queue \d+\), note “later”$/,
  )
  const marked = (await items.first().getByTestId('history-description').textContent()) ?? ''
  // Marked again, the mark is the newest change set in History, by kind, with what it marked;
  // the earlier mark and its undo are listed too: undo, then the mark it reverted.
  await expect(items.nth(1).getByTestId('history-kind')).toHaveText('undo')
  await expect(items.nth(2)).toContainText('Marked good')
  await expect(items.nth(2)).toContainText('reverted by')
  await expect(page.getByTestId('undo')).toHaveAttribute('title', `Undo “${marked}” (Ctrl+Z)`)

  // Ctrl+Z on the review page undoes the mark: History says so, and the queue shows no mark.
  await page.keyboard.press('Control+z')
  await expect(notes.filter({ hasText: `Undid “${marked}”.` })).toBeVisible()
  await expect(items.first().getByTestId('history-kind')).toHaveText('undo')
  await expect(items.first().getByTestId('history-description')).toContainText(`: ${marked}`)
  await expect(items.nth(1)).toContainText('reverted by')
  await page.getByTestId('page-tab-today').click()
  await page.getByTestId('triage-resume').click()
  await expect(item.getByTestId('story-sentence-highlight')).toBeVisible()
  await expect(item.getByTestId('triage-annotation').first()).toHaveAttribute('data-mark', '')
})

test('an audit verdict is a change set: Ctrl+Z in the audit takes it back, and History lists both', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-audits').click()
  await drawAudit(page, { n: 5, seed: 3, name: 'Five' })
  const counts = page.getByTestId('audit-counts')
  await expect(counts).toContainText('5 open of 5 drawn')

  await page.keyboard.press('n')
  await expect(counts).toContainText('0 yes · 1 no · 0 skipped · 4 open')
  await page.keyboard.press('Control+z')
  await expect(
    page.getByRole('status').filter({ hasText: 'Undid “Judged no: item 1 of audit' }),
  ).toBeVisible()
  await expect(counts).toContainText('0 yes · 0 no · 0 skipped · 5 open')
  await expect(page.getByTestId('audit-list')).toContainText('0 of 5 judged')

  await page.getByTestId('page-tab-review').click()
  await page.getByTestId('history-button').click()
  const items = page.getByTestId('history-item')
  await expect(items.first().getByTestId('history-kind')).toHaveText('undo')
  await expect(items.nth(1).getByTestId('history-kind')).toHaveText('audit')
  await expect(items.nth(1).getByTestId('history-description')).toHaveText(
    /^Judged no: item 1 of audit \d+ “Five”$/,
  )
  await expect(items.nth(2).getByTestId('history-description')).toHaveText(
    /^Drew audit \d+ “Five”: 5 items \(seed 3\)$/,
  )
  // What only adds is not reverted: History offers no Revert for the draw.
  await expect(items.nth(2).getByTestId('history-revert')).toHaveCount(0)
})
