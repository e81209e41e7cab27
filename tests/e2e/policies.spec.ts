import type { Page } from '@playwright/test'
import { expect, openDemo, test } from './fixtures'

/** The status bar's annotations by rating, as text. */
async function statusRatings(page: Page): Promise<string> {
  return (await page.getByTestId('status-ratings').textContent()) ?? ''
}

test('a policy is loaded, dry run, applied from the Policies page and undone', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  const before = await statusRatings(page)
  await page.getByTestId('page-tab-policies').click()
  await expect(page.getByTestId('policies-page')).toBeVisible()
  await page.getByTestId('policy-shipped').selectOption('glucose-cleanup.ts')
  await expect(page.getByTestId('policy-editor')).toContainText('GLUCOSE cleanup')
  // The parameters the script declares, as a form.
  await expect(page.getByTestId('param-prolific')).toHaveValue('200')
  await page.getByTestId('param-check').fill('50')
  await page.getByTestId('policy-dry-run').click()
  await expect(page.getByTestId('policy-report')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('policy-rule')).toHaveCount(4)
  await expect(page.getByTestId('policy-report')).toContainText(
    'an annotation is moved by the first rule that selects it',
  )
  const matrix = page.getByTestId('policy-matrix')
  await expect(matrix).toBeVisible()
  // −1 → 1 is a cell of the matrix: the demo has new workers.
  await expect(page.getByTestId('matrix--1-1')).not.toHaveText('')

  // A sample opens in the review grid; the page keeps its dry run meanwhile.
  await page.getByTestId('policy-sample').first().click()
  await expect(page.getByTestId('grid-total')).toContainText('1 annotation')
  await page.getByTestId('page-tab-policies').click()
  await expect(page.getByTestId('policy-matrix')).toBeVisible()

  await page.getByTestId('policy-apply').click()
  await expect(page.getByTestId('policy-revert')).toBeVisible({ timeout: 30_000 })
  // The grid's counts by rating: no −1, 0 or 1.5 is left.
  await page.getByTestId('page-tab-review').click()
  await expect.poll(() => statusRatings(page)).not.toBe(before)
  expect(await statusRatings(page)).not.toMatch(/[−-]1 |1\.5 |\b0 /)

  // History shows what the change set was made from: file, hash, parameters, script.
  await page.getByTestId('history-button').click()
  const run = page.getByTestId('history-item').first()
  await expect(run.getByTestId('history-kind')).toHaveText('policy')
  await run.getByTestId('history-policy').locator('summary').first().click()
  await expect(run.getByTestId('policy-run')).toContainText('glucose-cleanup.ts')
  await expect(run.getByTestId('policy-run-sha')).toHaveText(/^[0-9a-f]{64}$/)
  await expect(run.getByTestId('policy-run')).toContainText(/check\s*50/)
  await expect(run.getByTestId('policy-run-script')).toContainText("name: 'GLUCOSE cleanup'", {
    useInnerText: false,
  })
  // …and opens it again on the Policies page with its parameters.
  await run.getByTestId('policy-run-open').click()
  await expect(page.getByTestId('param-check')).toHaveValue('50')
  await page.getByTestId('page-tab-review').click()

  // Undo (Ctrl+Z) reverts the policy's change set like any other change.
  await page.locator('.ag-row').first().click()
  await page.keyboard.press('ControlOrMeta+z')
  await expect.poll(() => statusRatings(page), { timeout: 30_000 }).toBe(before)
})

test('a script error is marked at its line and nothing is applied', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-policies').click()
  await page.getByTestId('policy-shipped').selectOption('starter.ts')
  await expect(page.getByTestId('param-minSubmissions')).toBeVisible()
  const editor = page.locator('.cm-content')
  await editor.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type('\nconst broken: = 1\n')
  await expect(page.getByTestId('policy-problem')).toContainText('Line ')
  await expect(page.locator('.cm-lint-marker-error')).toHaveCount(1)
  await expect(page.getByTestId('policy-apply')).toBeDisabled()
})

test('Apply confirms only the dry run of the script on screen', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-policies').click()
  const dryRun = page.getByTestId('policy-dry-run')
  const apply = page.getByTestId('policy-apply')
  await page.getByTestId('policy-shipped').selectOption('starter.ts')
  await expect(page.getByTestId('param-minSubmissions')).toBeVisible()
  await expect(apply).toBeDisabled()
  await dryRun.click()
  await expect(page.getByTestId('policy-report')).toBeVisible({ timeout: 30_000 })
  await expect(apply).toBeEnabled()

  // A syntax error after the dry run: the report is of another script now.
  const editor = page.locator('.cm-content')
  await editor.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type('\nconst broken: = 1\n')
  await expect(page.getByTestId('policy-problem')).toContainText('Line ')
  await expect(apply).toBeDisabled()
  await expect(apply).not.toHaveClass(/primary/)
  await expect(page.getByTestId('policy-stale')).toBeVisible()
  await expect(page.getByTestId('policy-report')).toHaveAttribute('data-state', 'stale')

  // The editor emptied: nothing to run, nothing to apply, and Apply is not the next step.
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await expect(editor).toHaveText('')
  await expect(apply).toBeDisabled()
  await expect(apply).not.toHaveClass(/primary/)
  await expect(dryRun).toBeDisabled()

  // The primary button is the next step: Dry run first, then Apply.
  await page.getByTestId('policy-shipped').selectOption('starter.ts')
  await expect(dryRun).toHaveClass(/primary/)
  await expect(apply).not.toHaveClass(/primary/)
  await dryRun.click()
  await expect(apply).toBeEnabled({ timeout: 30_000 })
  await expect(apply).toHaveClass(/primary/)
  await expect(dryRun).not.toHaveClass(/primary/)
})

test('a dry run’s samples show each annotation’s statements with its rating before → after', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-policies').click()
  await page.getByTestId('policy-shipped').selectOption('glucose-cleanup.ts')
  await page.getByTestId('policy-dry-run').click()
  await expect(page.getByTestId('policy-report')).toBeVisible({ timeout: 30_000 })
  const sample = page.getByTestId('policy-sample-item').first()
  await expect(sample.getByTestId('policy-sample-move').locator('.rating')).toHaveCount(2)
  const specific = (await sample.getByTestId('policy-sample-specific').textContent()) ?? ''
  expect(specific).toMatch(/>\w+(\/\w+)?>/)
  // The statement is the annotation's own: the grid shows the same when the sample is opened.
  await sample.getByTestId('policy-sample').click()
  await expect(page.getByTestId('grid-total')).toContainText('1 annotation')
  await expect(page.locator('.ag-row').first()).toContainText(specific.slice(0, 30))
})

test('after Apply the report stays, marked applied, with a link to its change set', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-policies').click()
  await page.getByTestId('policy-shipped').selectOption('glucose-cleanup.ts')
  await page.getByTestId('policy-dry-run').click()
  await expect(page.getByTestId('policy-report')).toBeVisible({ timeout: 30_000 })
  await page.getByTestId('policy-apply').click()
  await expect(page.getByTestId('policy-revert')).toBeVisible({ timeout: 30_000 })
  const report = page.getByTestId('policy-report')
  await expect(report).toHaveAttribute('data-state', 'applied')
  await expect(page.getByTestId('policy-applied')).toContainText(
    /Applied [\d,]+ annotations changed rating in change set #\d+/,
  )
  await expect(page.getByTestId('policy-rule')).toHaveCount(4)
  await expect(page.getByTestId('policy-apply')).toBeDisabled()

  // Its change set opens in History.
  const link = page.getByTestId('policy-change-set')
  const id = ((await link.textContent()) ?? '').replace(/\D/g, '')
  await link.click()
  const marked = page.getByTestId('history-panel').locator('[aria-current="true"]')
  await expect(marked).toContainText(`#${id}`)
  await expect(marked.getByTestId('history-kind')).toHaveText('policy')
})
