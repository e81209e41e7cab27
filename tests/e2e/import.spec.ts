import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeDimensionCsvs, writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { releaseCsv } from '../helpers/glucose'

/** Opens the demo; its status line, and that line's text before the test changes anything. */
async function openWithCounts(
  page: Page,
  url: string,
): Promise<{ status: Locator; before: string }> {
  await page.goto(url)
  const status = page.getByTestId('status-counts')
  await expect(status).toContainText('3,000 submissions')
  return { status, before: (await status.textContent()) ?? '' }
}

/** Opens the import dialog, chooses a release-layout file and starts importing it. */
async function importRelease(page: Page, file: string): Promise<void> {
  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles(file)
  await expect(page.getByTestId('import-format')).toHaveValue('glucose-release')
  await page.getByTestId('import-start').click()
}

function count(text: string | null, label: string): number {
  const match = new RegExp(`([\\d,]+) ${label}`).exec(text ?? '')
  if (!match?.[1]) throw new Error(`no '${label}' in '${text ?? ''}'`)
  return Number(match[1].replace(/,/g, ''))
}

test('starts on the demo project, imports a file with progress, and counts it', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url)
  const status = page.getByTestId('status-counts')
  await expect(status).toContainText('3,000 submissions')
  const before = count(await status.textContent(), 'submissions')

  const csv = releaseCsv(demo.dir, 'new-batch.csv', 4000, 77, {
    workerStyle: 'mturk',
    ratingStyle: 'float',
  })

  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles(csv)
  await expect(page.getByTestId('import-file')).toContainText('new-batch.csv')
  await expect(page.getByTestId('import-format')).toHaveValue('glucose-release')
  // The focus has gone on to Import: Enter starts it.
  await expect(page.getByTestId('import-start')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('import-progress')).toBeVisible()
  await expect(page.getByTestId('import-result')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('import-result-submissions')).toContainText('4,000')
  // The job tray's last line says what the import did, not the step it was on.
  await expect(page.getByTestId('job-tray').getByTestId('job-summary')).toContainText(
    /^Added 4,000 submissions and [\d,]+ annotations\.in \d/,
  )
  await page.getByTestId('import-close').click()
  await expect(status).toContainText(`${(before + 4000).toLocaleString('en-US')} submissions`)
})

test('files dropped anywhere on the window open the import with them', async ({ page, demo }) => {
  const { status } = await openWithCounts(page, demo.url)
  const csv = readFileSync(releaseCsv(demo.dir, 'dropped.csv', 12, 16), 'utf8')
  // What the browser hands the page when a file from the desktop is dragged in and let go.
  const transfer = await page.evaluateHandle(`(() => {
    const data = new DataTransfer()
    data.items.add(new File([${JSON.stringify(csv)}], 'dropped.csv', { type: 'text/csv' }))
    return data
  })()`)
  await page.dispatchEvent('.grid-host', 'dragenter', { dataTransfer: transfer })
  await expect(page.getByText('Drop files to import')).toBeVisible()
  await page.dispatchEvent('.grid-host', 'dragover', { dataTransfer: transfer })
  await page.dispatchEvent('.grid-host', 'drop', { dataTransfer: transfer })
  await expect(page.getByText('Drop files to import')).toHaveCount(0)
  await expect(page.getByTestId('import-file')).toContainText('dropped.csv')
  await expect(page.getByTestId('import-format')).toHaveValue('glucose-release')
  await page.getByTestId('import-start').click()
  await expect(page.getByTestId('import-result-submissions')).toHaveText('12')
  await page.getByTestId('import-close').click()
  await expect(status).toContainText('3,012 submissions')
  expect(page.url()).toContain('127.0.0.1')
})

test('cancelling a running import leaves the project as it was', async ({ page, demo }) => {
  const { status, before } = await openWithCounts(page, demo.url)
  // Large enough that the import is still running when Cancel is pressed (a few seconds).
  const big = releaseCsv(demo.dir, 'big.csv', 40_000, 17)

  await importRelease(page, big)
  await expect(page.getByTestId('import-progress')).toBeVisible()
  await expect(page.getByTestId('import-cancel')).toBeEnabled()
  await page.getByTestId('import-cancel').click()
  await expect(page.getByTestId('import-cancelled')).toHaveText(
    'Import cancelled. The project is as it was before.',
    { timeout: 30_000 },
  )
  await page.keyboard.press('Escape')
  await expect(status).toHaveText(before)
  // The grid shows the project's rows still: nothing half-imported appears after a reload.
  await page.reload()
  await expect(page.getByTestId('status-counts')).toHaveText(before)
})

test('once the rows are in, the button only stops the search indexing and the import stays', async ({
  page,
  demo,
}) => {
  const { status, before } = await openWithCounts(page, demo.url)
  const big = releaseCsv(demo.dir, 'big.csv', 40_000, 18)

  await importRelease(page, big)
  const button = page.getByTestId('import-cancel')
  await expect(button).toHaveText('Cancel import')
  // The rows are committed, then their text is indexed for search: a cancel can no longer undo
  // the import, and the button says what it does now.
  await expect(button).toHaveText('Stop indexing', { timeout: 30_000 })
  await expect(button).toHaveAttribute('title', /rows are in the project/)
  await button.click()
  await expect(page.getByTestId('import-result-submissions')).toHaveText('40,000')
  await expect(page.getByTestId('import-cancelled')).toHaveCount(0)
  await page.getByTestId('import-close').click()
  await expect(status).toContainText(
    `${(count(before, 'submissions') + 40_000).toLocaleString('en-US')} submissions`,
  )
})

test('a broken file gets one clear message with its location and changes nothing', async ({
  page,
  demo,
}) => {
  const { status, before } = await openWithCounts(page, demo.url)
  const good = releaseCsv(demo.dir, 'good.csv', 60, 5)
  const lines = readFileSync(good, 'utf8').split('\n')
  lines[41] = `${lines[41]},"unterminated`
  const broken = join(demo.dir, 'broken.csv')
  writeFileSync(broken, lines.join('\n'))

  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles(broken)
  await expect(page.getByTestId('import-file')).toContainText('broken.csv')
  await page.getByTestId('import-start').click()
  const error = page.getByTestId('import-dialog').getByTestId('error-message')
  await expect(error).toContainText('broken.csv:42')
  await expect(error).toContainText(/quote/i)
  await page.keyboard.press('Escape')
  await expect(status).toHaveText(before)
})

test('a file with only its header is imported as such, and the tray says so on one line', async ({
  page,
  demo,
}) => {
  const { status, before } = await openWithCounts(page, demo.url)
  const full = releaseCsv(demo.dir, 'full.csv', 1, 6)
  const header = join(demo.dir, 'header-only.csv')
  writeFileSync(header, `${readFileSync(full, 'utf8').split('\n')[0] ?? ''}\n`)

  await importRelease(page, header)
  const sentence = 'Nothing was added: the file holds no rows, only its header.'
  await expect(page.getByTestId('import-result')).toContainText(sentence)
  const summary = page.getByTestId('job-tray').getByTestId('job-summary')
  await expect(summary).toContainText(sentence)
  // The sentence is shortened to fit; the time it took stays whole, on one line.
  interface Measured {
    ownerDocument: {
      createRange(): {
        selectNodeContents(node: unknown): void
        getClientRects(): { top: number }[]
      }
    }
  }
  const lines = await summary.getByText(/^in \d/).evaluate((e: Measured) => {
    const range = e.ownerDocument.createRange()
    range.selectNodeContents(e)
    // Line boxes, not text pieces: "in " and the time are two text nodes on one line.
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
  })
  expect(lines).toBe(1)
  await page.getByTestId('import-close').click()
  await expect(status).toHaveText(before)
})

test('asks which year the year-less dates of a per-dimension file were collected in', async ({
  page,
  demo,
}) => {
  const { status } = await openWithCounts(page, demo.url)
  const dir = join(demo.dir, 'dims')
  mkdirSync(dir)
  const generated = [...generateSubmissions({ count: 25, seed: 14 })]
  writeDimensionCsvs(dir, generated)
  const withDim4 = generated.filter((g) => g.annotations.some((a) => a.dimension === 4)).length
  const good = releaseCsv(demo.dir, 'with-years.csv', 5, 15)

  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles([good, join(dir, 'dim_4.csv')])
  await expect(page.getByTestId('import-file')).toHaveCount(2)
  // Only the file without years is named; nothing starts until the year is a plausible one.
  const question = page.locator('.year-field')
  await expect(question).toContainText('dim_4.csv writes dates without a year')
  await expect(question).not.toContainText('with-years.csv')
  const start = page.getByTestId('import-start')
  await expect(start).toBeDisabled()
  // The focus has gone on to the year; Enter there starts the import once the year is plausible.
  await expect(page.getByTestId('year-input')).toBeFocused()
  await page.keyboard.type('1800')
  await expect(question).toContainText('A year from 1990 to 2100.')
  await page.keyboard.press('Enter')
  await expect(start).toBeDisabled()
  await page.getByTestId('year-input').fill('2019')
  await expect(start).toBeEnabled()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('import-result')).toBeVisible()
  await expect(page.getByTestId('import-result-submissions')).toHaveText(['5', String(withDim4)])
  await page.getByTestId('import-close').click()
  await expect(status).toContainText(`${(3005 + withDim4).toLocaleString('en-US')} submissions`)
})

test('files with formats chosen by hand are imported with the rest, all or nothing', async ({
  page,
  demo,
}) => {
  const { status, before } = await openWithCounts(page, demo.url)
  const good = releaseCsv(demo.dir, 'good.csv', 30, 8)
  const other = releaseCsv(demo.dir, 'other.csv', 20, 9)
  const unknown = join(demo.dir, 'unknown.csv')
  writeFileSync(unknown, 'a,b,c\n1,2,3\n')

  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles([good, other, unknown])
  const rows = page.getByTestId('import-file')
  await expect(rows).toHaveCount(3)
  // A file nobody recognised holds the import back until it has a format or is gone.
  await expect(page.getByTestId('import-file-problem')).toContainText('unknown.csv:1:1')
  await expect(page.getByTestId('import-hint')).toHaveText(
    'Remove unknown.csv to import the rest: it fits no GLUCOSE layout as it is.',
  )
  await expect(page.getByTestId('import-start')).toBeDisabled()
  await page.getByRole('button', { name: 'Remove unknown.csv' }).click()
  await expect(page.getByTestId('import-hint')).toHaveCount(0)

  // The wrong format, chosen by hand for the second file: its header does not fit, so the first
  // file, detected correctly, must not be imported either.
  await page.getByLabel('Format of other.csv').selectOption('glucose-test')
  await page.getByTestId('import-start').click()
  const error = page.getByTestId('import-dialog').getByTestId('error-message')
  await expect(error).toContainText('other.csv:1:1')
  await expect(error).toContainText('Nothing was imported; the project is unchanged.')
  await page.keyboard.press('Escape')
  await expect(status).toHaveText(before)
})

test('crowd text is shown as text, never as HTML', async ({ page, demo }) => {
  const [submission] = [...generateSubmissions({ count: 1, seed: 12 })]
  if (!submission) throw new Error('nothing generated')
  const attack =
    '<img src=x onerror="window.__pwned=1"> goes home >Causes/Enables> Someone_A sleeps'
  submission.annotations[0] = { ...submission.annotations[0]!, specificNL: attack }
  const csv = join(demo.dir, 'attack.csv')
  writeReleaseCsv(csv, [submission], { workerStyle: 'mturk', ratingStyle: 'float' })

  await page.goto(demo.url)
  await page.getByTestId('import-button').click()
  await page.getByTestId('import-file-input').setInputFiles(csv)
  await page.getByTestId('import-start').click()
  await expect(page.getByTestId('import-result')).toBeVisible()
  await page.getByTestId('import-close').click()

  await page.getByTestId('filter-text').fill('onerror')
  await page.getByTestId('filter-text').press('Enter')
  await expect(page.getByTestId('grid-total')).toContainText('1')
  await expect(
    page.getByTestId('grid').getByText('<img src=x onerror=', { exact: false }).first(),
  ).toBeVisible()
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(await page.locator('[data-testid="grid"] img').count()).toBe(0)

  // The same row with no text search: the cells draw the plain text, not only matches.
  await page.getByTestId('filter-text').fill('')
  await page.getByTestId('filter-story').fill(submission.storyExternalId)
  await page.getByTestId('filter-story').press('Enter')
  const cell = page.getByTestId('grid').locator('.cell-text', { hasText: '<img src=x onerror=' })
  await expect(cell.first()).toHaveText(attack)
  const sentence = submission.sentences.find((x) => x.index === submission.sentenceIndex)?.text
  if (!sentence) throw new Error('the generated submission names no selected sentence')
  await expect(
    page.getByTestId('grid').locator('.cell-text', { hasText: sentence }).first(),
  ).toBeVisible()
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(await page.locator('[data-testid="grid"] img').count()).toBe(0)
})
