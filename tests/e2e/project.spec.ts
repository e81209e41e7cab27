import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { releaseCsv } from '../helpers/glucose'
import { expect, openDemo, serve, stop, test } from './fixtures'

/** File ▸ New project… or Open project… (serve mode asks for the path). */
async function fileDialog(page: Page, item: 'menu-new' | 'menu-open', path: string): Promise<void> {
  await page.getByTestId('menu-file').click()
  await page.getByTestId(item).click()
  await page.getByTestId('path-dialog').getByRole('textbox').fill(path)
  await page.getByTestId('path-submit').click()
  await expect(page.getByTestId('path-dialog')).toHaveCount(0)
}

/** The page shows the empty project `name` on Review, with one set of the workspace's tools. */
async function expectEmptyProject(page: Page, name: string): Promise<void> {
  await expect(page.getByTestId('project-name')).toHaveText(name)
  await expect(page.getByTestId('status-counts')).toHaveAttribute('data-annotations', '0')
  await expect(page.getByTestId('page-tab-review')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('grid-empty')).toContainText('No annotations in this project yet')
  await expect(page.getByTestId('grid-total')).toHaveAttribute('data-total', '0')
  await expect(page.locator('.ag-row')).toHaveCount(0)
  await expect(page.getByTestId('filter-chip')).toHaveCount(0)
  await expect(page.getByTestId('worker-panel')).toHaveCount(0)
  for (const id of ['undo', 'redo', 'history-button', 'as-of-input', 'status-ratings'])
    await expect(page.getByTestId(id), id).toHaveCount(1)
  await expect(page.getByTestId('status-rating')).toHaveText(['unrated 0'])
}

test('another project (new, open, recent) shows only its own data, on every page', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  const fresh = join(demo.dir, 'fresh.winnow')

  // New project, from the demo's grid.
  await fileDialog(page, 'menu-new', fresh)
  await expectEmptyProject(page, 'fresh')

  // Open the demo again: its rows, and nothing of the empty project.
  await fileDialog(page, 'menu-open', demo.dbPath)
  await expect(page.getByTestId('grid-total')).toContainText('14,061 annotations')
  await expect(page.getByTestId('undo')).toHaveCount(1)

  // Leave state behind: a worker's rows with their panel (opened from Today), Today on screen.
  await page.getByTestId('page-tab-today').click()
  const row = page.getByTestId('today-row').first()
  const worker = (await row.getAttribute('data-worker')) ?? ''
  await row.getByRole('button', { name: worker }).click()
  await expect(page.getByTestId('worker-panel')).toHaveAttribute('data-worker', worker)
  await expect(page.getByTestId('filter-chip')).toContainText(`worker ${worker}`)
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today-row').first()).toBeVisible()

  // File ▸ Recent ▸ fresh: the empty project on Review, and an empty Today.
  await page.getByTestId('menu-file').click()
  await page.getByTestId('menu-recent').filter({ hasText: 'fresh' }).click()
  await expectEmptyProject(page, 'fresh')
  await page.getByTestId('page-tab-today').click()
  await expect(page.getByTestId('today')).toBeVisible()
  await expect(page.getByTestId('today-row')).toHaveCount(0)
})

test('File ▸ Recent lists a project created and used, in this run and the next', async ({
  page,
  workDir,
}) => {
  const first = join(workDir, 'first.winnow')
  const run = await serve(['--demo', '--db', join(workDir, 'demo.winnow')], workDir)
  await openDemo(page, run.served.url)
  const recent = page.getByTestId('menu-recent')
  // The demo is not a project of the user's: nothing is recent yet.
  await page.getByTestId('menu-file').click()
  await expect(page.getByRole('menu')).toContainText('No recent projects')
  await page.keyboard.press('Escape')

  await fileDialog(page, 'menu-new', first)
  await expectEmptyProject(page, 'first')
  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles(releaseCsv(workDir, 'a.csv', 20, 3))
  await page.getByTestId('import-start').click()
  await expect(page.getByTestId('import-result-submissions')).toContainText('20')
  await page.getByTestId('import-close').click()
  await page.getByTestId('menu-file').click()
  await expect(recent).toHaveText(['first'])
  await expect(recent).toHaveAttribute('title', first)
  await page.keyboard.press('Escape')
  await stop(run.child)

  // The next run (on the demo again) still knows it, and opens it with its data.
  const next = await serve(['--demo', '--db', join(workDir, 'demo.winnow')], workDir)
  await openDemo(page, next.served.url)
  await page.getByTestId('menu-file').click()
  await recent.filter({ hasText: 'first' }).click()
  await expect(page.getByTestId('project-name')).toHaveText('first')
  await expect(page.getByTestId('status-counts')).toHaveAttribute('data-submissions', '20')
  await stop(next.child)
})
