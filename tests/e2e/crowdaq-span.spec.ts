import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, openCollection, serve, stop, test } from './fixtures'

const FIXTURES = fileURLToPath(new URL('../fixtures/crowdaq', import.meta.url))

/**
 * Selects `word` in the preview's text context, as a worker's mouse would. A string, since the
 * tests are typed without the page's DOM.
 */
async function select(page: Page, word: string): Promise<void> {
  await page.evaluate(`(() => {
    // Picked spans are marked in the text, so the word may sit in any of its text nodes.
    const text = document.querySelector('[data-testid="cq-task"] .cq-context-text')
    const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT)
    let node = walker.nextNode()
    while (node && node.data.indexOf(${JSON.stringify(word)}) < 0) node = walker.nextNode()
    const start = node.data.indexOf(${JSON.stringify(word)})
    const range = document.createRange()
    range.setStart(node, start)
    range.setEnd(node, start + ${word.length})
    const selection = window.getSelection()
    selection.removeAllRanges()
    selection.addRange(range)
  })()`)
}

test('a span collector takes the text selected in its context, checks it and counts repeats', async ({
  page,
  workDir,
}) => {
  const { served, child } = await serve(['--db', join(workDir, 'span.winnow')], workDir)
  try {
    await page.goto(served.url)
    await openCollection(page, 'crowdaq')
    await page.getByTestId('cq-import-input').setInputFiles([join(FIXTURES, 'task.json')])
    await page.getByTestId('cq-tasks').getByRole('button', { name: 'fx_task', exact: true }).click()

    // Nothing selected yet: the collector says so and keeps no value.
    const quantity = page.getByTestId('cq-collector-quantity')
    await quantity.getByRole('button', { name: 'Use selection' }).click()
    await expect(quantity.getByRole('status')).toContainText('No text of “Review” is selected.')

    // “soup” is characters 4 to 8 of the review; it is no number, so the constraint says so.
    await select(page, 'soup')
    await quantity.getByRole('button', { name: 'Use selection' }).click()
    await expect(quantity.getByTestId('cq-span-value')).toHaveText('“soup” (4–8)')
    await expect(quantity.getByTestId('cq-problem')).toHaveText('a number, e.g. 2,500')
    await quantity.getByRole('button', { name: 'Clear' }).click()
    await expect(quantity.getByTestId('cq-span-value')).toHaveCount(0)
    await expect(quantity.getByTestId('cq-problem')).toHaveText('required')

    // A repeated span collector: one of at least one, then up to its max of two.
    const people = page.getByTestId('cq-collector-people')
    await expect(people.getByTestId('cq-problem')).toHaveText('required')
    await select(page, 'staff')
    await people.getByRole('button', { name: 'Use selection' }).focus()
    await page.keyboard.press('Enter')
    await expect(people.getByTestId('cq-span-value')).toContainText('“staff” (26–31)')
    // The picked span is marked in the context, apart from the requester's highlights.
    await expect(page.getByTestId('cq-task').locator('.cq-context-text mark.cq-picked')).toHaveText(
      ['staff'],
    )
    await expect(people.getByTestId('cq-problem')).toHaveCount(0)
    await select(page, 'kind')
    await people.getByRole('button', { name: 'Use selection' }).click()
    await expect(people.getByTestId('cq-span-value').locator('li')).toHaveCount(2)
    await expect(people).toContainText('2 spans, at least 1, at most 2')
    await expect(people.getByRole('button', { name: 'Use selection' })).toBeDisabled()
    await people.getByRole('button', { name: 'Remove' }).first().click()
    await expect(people.getByTestId('cq-span-value')).toContainText('“kind” (37–41)')
    await expect(page.getByTestId('cq-task').locator('.cq-context-text mark.cq-picked')).toHaveText(
      ['kind'],
    )
    await expect(people.getByRole('button', { name: 'Use selection' })).toBeEnabled()
  } finally {
    await stop(child)
  }
})
