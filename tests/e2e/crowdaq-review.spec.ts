import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, openCollection, serve, stop, test } from './fixtures'

const FIXTURES = fileURLToPath(new URL('../fixtures/crowdaq', import.meta.url))

test('task responses join the review: contexts, agreement per question, disagreements first, keys', async ({
  page,
  workDir,
}) => {
  // A response whose text is markup: the review shows it as text and runs nothing.
  const payload = join(workDir, 'payload_rows.json')
  writeFileSync(
    payload,
    JSON.stringify([
      {
        _id: 'p1',
        annotation_task_id: 'fx_task2',
        worker_id: 'AWFOUR',
        complete_time: '2026-01-03T09:00:00Z',
        response: JSON.stringify({
          filteredResult: { sentiment: { polarity: 'B' } },
          result: {},
        }),
      },
      {
        _id: 'p2',
        annotation_task_id: 'fx_task',
        worker_id: 'AWFOUR',
        complete_time: '2026-01-03T09:00:00Z',
        response: JSON.stringify({
          filteredResult: {
            sentiment: { polarity: 'A', aspect: 'A', detail: '<img src=x onerror=alert(1)>' },
          },
        }),
      },
    ]),
  )
  const { served, child } = await serve(['--db', join(workDir, 'review.winnow')], workDir)
  try {
    await page.goto(served.url)
    await openCollection(page, 'crowdaq')
    const input = page.getByTestId('cq-import-input')
    await input.setInputFiles([join(FIXTURES, 'task.json')])

    // A task without responses says so.
    await page.getByTestId('cq-tasks').getByRole('button', { name: 'fx_task', exact: true }).click()
    await expect(page.getByTestId('cq-review-empty')).toContainText('No responses to this task yet')

    await input.setInputFiles([join(FIXTURES, 'task_assignments.json'), payload])
    await expect(page.getByTestId('cq-all-responses')).toContainText('Review all 7 responses')
    await page.getByTestId('cq-all-responses').click()

    const review = page.getByTestId('cq-task-review')
    const agreement = page.getByTestId('cq-agreement')
    await expect(agreement.locator('tbody tr').first()).toContainText('sentiment.aspect')
    await expect(agreement.locator('tbody tr').first()).toContainText('67%')

    // The task workers disagree on comes first, with its context and the disputed answers marked.
    const tasks = review.getByTestId('cq-review-task')
    await expect(tasks).toHaveCount(2)
    await expect(tasks.nth(0)).toContainText('fx_task ·')
    await expect(tasks.nth(0)).toContainText('workers disagree')
    await expect(tasks.nth(0).getByTestId('cq-context')).toContainText(
      'The soup was cold but the staff were kind.',
    )
    await expect(tasks.nth(0).getByTestId('cq-review-response')).toHaveCount(4)
    await expect(tasks.nth(0).locator('td.cq-disputed').first()).toBeVisible()
    await expect(tasks.nth(1)).toContainText('workers agree')

    // Markup a worker typed is text on the page.
    await expect(tasks.nth(0)).toContainText('<img src=x onerror=alert(1)>')
    await expect(review.locator('img, script')).toHaveCount(0)

    // Keys: j / k step through the tasks; a disagreement in the table jumps to its task.
    await tasks.nth(0).focus()
    await page.keyboard.press('j')
    await expect(tasks.nth(1)).toBeFocused()
    await page.keyboard.press('k')
    await expect(tasks.nth(0)).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(tasks.nth(1)).toBeFocused()
    await agreement
      .getByRole('button', { name: /fx_task/ })
      .first()
      .click()
    await expect(tasks.nth(0)).toBeFocused()

    // One task's responses under its preview.
    await page.getByTestId('cq-tasks').getByRole('button', { name: 'fx_task2' }).click()
    await expect(page.getByTestId('cq-task')).toBeVisible()
    await expect(review.getByTestId('cq-review-response')).toHaveCount(3)
    await expect(page.getByTestId('cq-agreement')).toContainText('100%')
  } finally {
    await stop(child)
  }
})
