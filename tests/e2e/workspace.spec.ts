import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { releaseCsv } from '../helpers/glucose'
import { expect, serve, stop, test } from './fixtures'

/** The two window sizes reviewers use most; layout checks run at both. */
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const

/** A project of 120 submissions whose workers have MTurk ids (`A…`, 12–14 characters), served. */
async function serveMturkProject(dir: string) {
  const csv = releaseCsv(dir, 'mturk.csv', 120, 5, { workerStyle: 'mturk', ratingStyle: 'float' })
  const dbPath = join(dir, 'mturk.winnow')
  execFileSync(process.execPath, ['out/main/cli.js', 'import', csv, '--db', dbPath])
  return serve(['--db', dbPath], dir)
}

async function openProject(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.getByTestId('grid-total')).not.toHaveAttribute('data-total', '', {
    timeout: 30_000,
  })
}

/** The sizes of an element's box and content, as the page measures them. */
interface Box {
  scrollWidth: number
  clientWidth: number
  scrollHeight: number
  clientHeight: number
}

/** Whether an element shows all of its text (nothing cut by its box). */
function showsWhole(locator: Locator): Promise<boolean> {
  return locator.evaluate(
    (e: Box) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1,
  )
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size })

    test('the Columns menu opens inside the window with its labels whole', async ({
      page,
      demo,
    }) => {
      await openProject(page, demo.url)
      await page.getByTestId('columns-menu').click()
      const list = page.getByRole('group', { name: 'Columns' })
      const box = await list.boundingBox()
      expect(box).not.toBeNull()
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(size.width)
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0)
      const options = page.getByTestId('columns-menu-option')
      await expect(options).toHaveCount(10)
      for (const option of await options.all()) expect(await showsWhole(option)).toBe(true)
    })

    test('worker ids read whole, rows wrap or pack denser, and Flags stays in view', async ({
      page,
      workDir,
    }) => {
      const { served, child } = await serveMturkProject(workDir)
      await openProject(page, served.url)
      const worker = page.locator('.ag-row[row-index="0"] [data-testid=worker-link]')
      await expect(worker).toHaveText(/^A[0-9A-Z]{11,13}$/)
      await expect.poll(() => showsWhole(worker)).toBe(true)

      // Flags is in the window, with the story view open too.
      const flagsHeader = page.locator('.ag-header-cell[col-id=flags]')
      const inWindow = async () => {
        const box = await flagsHeader.boundingBox()
        return box !== null && box.x >= 0 && box.x + box.width <= size.width
      }
      expect(await inWindow()).toBe(true)
      await page.locator('.ag-row[row-index="0"] .ag-cell[col-id=dimension]').click()
      await expect(page.getByTestId('story-view')).toBeVisible()
      expect(await inWindow()).toBe(true)
      await page.keyboard.press('Escape')

      // Wrapped rows show the story id and the statements whole; dense rows are shorter.
      const row = page.locator('.ag-row[row-index="0"]').first()
      const height = async () => (await row.boundingBox())?.height ?? 0
      const standard = await height()
      const storyCell = page.locator('.ag-row[row-index="0"] .ag-cell[col-id=storyId]')
      const story = storyCell.locator('.cell-id')
      expect(await showsWhole(storyCell)).toBe(false)
      await page.getByTestId('row-layout').selectOption('wrapped')
      await expect.poll(height).toBeGreaterThan(standard * 2)
      await expect.poll(() => showsWhole(story)).toBe(true)
      const statement = page.locator(
        '.ag-row[row-index="0"] .ag-cell[col-id=specificNL] .cell-text',
      )
      expect(await showsWhole(statement)).toBe(true)
      await page.getByTestId('row-layout').selectOption('dense')
      await expect.poll(height).toBeLessThan(standard)
      // The choice is kept for the next visit.
      await page.reload()
      await expect(page.getByTestId('row-layout')).toHaveValue('dense')
      await stop(child)
    })
  })
}

test('History names undo and redo by the rating they act on, and opens the past as of a change set', async ({
  page,
  demo,
}) => {
  await openProject(page, demo.url)
  const id = await page.locator('.ag-row[row-index="0"]').first().getAttribute('row-id')
  await page.locator('.ag-row[row-index="0"] .ag-cell[col-id=dimension]').click()
  const notes = page.getByRole('status')
  await page.keyboard.press('2')
  await expect(notes.filter({ hasText: `Annotation ${id} rated 2` })).toHaveCount(1)
  await page.keyboard.press('ControlOrMeta+z')
  await expect(notes.filter({ hasText: 'Undid' })).toHaveCount(1)
  await page.keyboard.press('ControlOrMeta+Shift+z')
  await expect(notes.filter({ hasText: 'Redid' })).toHaveCount(1)
  await page.keyboard.press('ControlOrMeta+z')
  await expect(notes.filter({ hasText: 'Undid' })).toHaveCount(2)

  await page.getByTestId('history-button').click()
  const items = page.getByTestId('history-item')
  const rating = `Rated 2: annotation ${id} (1 annotation)`
  await expect(items.getByTestId('history-kind')).toHaveText(
    ['undo', 'redo', 'undo', 'manual', 'import'],
    { timeout: 15_000 },
  )
  const ratingItem = items.nth(3)
  const ratingId = ((await ratingItem.locator('.history-id').textContent()) ?? '').slice(1)
  await expect(items.getByTestId('history-description')).toHaveText([
    `Undo #${ratingId}: ${rating}`,
    `Redo #${ratingId}: ${rating}`,
    `Undo #${ratingId}: ${rating}`,
    rating,
    /.+/,
  ])

  // As of the rating's change set: the banner names it, to the second.
  await ratingItem.getByTestId('history-as-of').click()
  const banner = page.getByTestId('as-of-banner')
  await expect(banner).toContainText(`as recorded by change set #${ratingId}`)
  await expect(banner).toContainText(/\(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)/)
  await expect(banner).toContainText('not commit or submission dates')
  await expect(page.getByTestId('as-of-input')).toHaveValue(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  await expect(page.getByTestId('as-of-nothing')).toHaveCount(0)

  // A moment before the data was imported: the banner says why everything is unrated.
  await page.getByTestId('as-of-input').fill('2020-01-01 00:00:05')
  await expect(banner).toContainText('as recorded by 2020-01-01 00:00:05')
  await expect(banner).not.toContainText('change set #')
  await expect(page.getByTestId('as-of-nothing')).toContainText('Nothing had been rated by then')
  await page.getByTestId('as-of-now').click()
  await expect(banner).toHaveCount(0)
})

/** Whether two boxes overlap. */
function overlap(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

for (const size of SIZES) {
  test.describe(`rating keys at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size })

    test('the keys are shown where people rate, a digit without a rating says so, and a note undoes its rating without covering the story view', async ({
      page,
      demo,
    }) => {
      await openProject(page, demo.url)
      // The status bar legend: each rating with its key (1.5 is key 4 on GLUCOSE's scale).
      await expect(page.getByTestId('status-rating').filter({ hasText: '1.5' })).toHaveAttribute(
        'title',
        /key 4/,
      )
      await expect(page.getByTestId('status-key')).toHaveText(['3', '2', '4', '1', '0', '5', '6'])

      const id = await page.locator('.ag-row[row-index="0"]').first().getAttribute('row-id')
      await page.locator('.ag-row[row-index="0"] .ag-cell[col-id=dimension]').click()
      await page.keyboard.press('Enter')
      const story = page.getByTestId('story-view')
      await expect(story.getByTestId('rate-key').filter({ hasText: '4' })).toContainText('Fair+')

      const notes = page.getByRole('status')
      await page.keyboard.press('8')
      await expect(notes.filter({ hasText: 'Key 8 has no rating' })).toContainText('4 → 1.5 Fair+')
      await page.keyboard.press('2')
      await page.keyboard.press('3')
      await page.keyboard.press('1')
      await expect(notes.filter({ hasText: `Annotation ${id} rated` })).toHaveCount(3)

      // Four notes stacked, none over the story view.
      const panel = await page.locator('.side').boundingBox()
      expect(panel).not.toBeNull()
      // Measured at once: notes fade while a slow machine measures them one by one.
      const boxes = await page.evaluate<{ x: number; y: number; width: number; height: number }[]>(
        `[...document.querySelectorAll('.toast')].map((e) => e.getBoundingClientRect().toJSON())`,
      )
      expect(boxes.length).toBeGreaterThan(1)
      for (const box of boxes) if (panel) expect(overlap(box, panel)).toBe(false)

      // Undo on the note of "rated 1" takes that rating back: the annotation is rated 3 again.
      await notes
        .filter({ hasText: `Annotation ${id} rated 1` })
        .getByTestId('toast-undo')
        .click()
      await expect(notes.filter({ hasText: `Undid Annotation ${id} rated 1` })).toHaveCount(1)
      await expect(
        page.locator('.ag-row[row-index="0"] .ag-cell[col-id=rating] .rating-pill'),
      ).toHaveText('3')

      // With the keyboard on no row, a digit says there is nothing to rate.
      await page.getByTestId('panel-close').first().click()
      await page.getByTestId('help-button').focus()
      await page.keyboard.press('2')
      await expect(notes.filter({ hasText: 'Nothing to rate with 2' })).toHaveCount(1)
    })
  })
}

test('filters: Enter goes on to the rows, no match says so, ISO days refuse an inverted range, flags by kind, Clear filters', async ({
  page,
  demo,
}) => {
  await openProject(page, demo.url)
  const chips = page.getByTestId('filter-chip').locator('.chip-label')
  const total = page.getByTestId('grid-total')
  const focusedRow = page.locator('[data-testid=grid] .ag-row:focus-within')

  // A worker that matches nothing says so in the field, and Enter adds nothing.
  const worker = page.getByTestId('filter-worker')
  await worker.fill('nobody-zz')
  await expect(page.getByTestId('filter-worker-none')).toHaveText('No worker matches “nobody-zz”')
  await worker.press('Enter')
  await expect(chips).toHaveCount(0)
  // Enter on a match adds it and goes on to its first row: j then steps through the rows.
  await worker.fill('19')
  await worker.press('Enter')
  await expect(chips).toHaveText(['worker 19'])
  await expect(focusedRow).toHaveAttribute('row-index', '0')
  await page.keyboard.press('j')
  await expect(focusedRow).toHaveAttribute('row-index', '1')
  await page.getByTestId('filter-chip-remove').click()

  // Days are written YYYY-MM-DD; a range that ends before it starts is refused with a message.
  const from = page.getByTestId('filter-from')
  const to = page.getByTestId('filter-to')
  await expect(from).toHaveAttribute('placeholder', 'YYYY-MM-DD')
  await from.fill('2019-10-15')
  await expect(chips).toHaveText(['from 2019-10-15'])
  await to.fill('2019-10-01')
  await expect(page.getByTestId('date-problem')).toContainText('is after')
  await expect(to).toHaveAttribute('aria-invalid', 'true')
  await expect(chips).toHaveText(['from 2019-10-15'])
  await to.fill('2019-10-31')
  await expect(page.getByTestId('date-problem')).toHaveCount(0)
  await expect(chips).toHaveText(['from 2019-10-15', 'to 2019-10-31'])
  await page.getByText('Clear all').click()

  // Ratings are written with a minus sign in the chips, as everywhere else.
  await page.getByTestId('filter-rating').click()
  await page.getByRole('checkbox', { name: 'rating -2' }).check()
  await page.keyboard.press('Escape')
  await expect(chips).toHaveText(['rating −2'])
  await page.getByTestId('filter-chip-remove').click()

  // Flagged picks a kind of flag; a flag's reason is written in its cell.
  await page.getByTestId('filter-flagged').click()
  await page.getByRole('checkbox', { name: 'any flag' }).check()
  await expect(total).toHaveAttribute('data-total', '735')
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id=flags]')).toContainText(
    '⚑ variable lost its underscore',
  )
  await page.getByRole('checkbox', { name: 'any flag' }).uncheck()
  await page.getByRole('checkbox', { name: 'NL does not parse' }).check()
  await page.keyboard.press('Escape')
  await expect(chips).toHaveText(['flag: NL does not parse'])

  // Nothing matches: the empty grid offers to clear the filters.
  await expect(total).toHaveAttribute('data-total', '0')
  await page.getByTestId('clear-filters').click()
  await expect(chips).toHaveCount(0)
  await expect(total).toHaveAttribute('data-total', '14061')
})

test('right-click on rows offers the selection’s actions: rate, open the story, show the worker, copy', async ({
  page,
  demo,
}) => {
  await openProject(page, demo.url)
  const cell = (index: number, column: string) =>
    page.locator(`.ag-row[row-index="${index}"] .ag-cell[col-id=${column}]`)
  const idAt = (index: number) =>
    page.locator(`.ag-row[row-index="${index}"]`).first().getAttribute('row-id')
  const menu = page.getByTestId('row-menu')
  const notes = page.getByRole('status')

  // One row: its menu rates it, and lists the keys beside the ratings.
  await cell(1, 'specificNL').click({ button: 'right' })
  await expect(menu).toBeVisible()
  const box = await menu.boundingBox()
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0)
  await expect(menu.getByTestId('row-menu-rate').filter({ hasText: '1.5' })).toContainText('4')
  await menu.getByTestId('row-menu-rate').filter({ hasText: 'Rate 3' }).click()
  await expect(menu).toHaveCount(0)
  await expect(notes.filter({ hasText: `Annotation ${await idAt(1)} rated 3` })).toHaveCount(1)

  // Open the story and show the worker from the menu; Esc closes it without closing a panel.
  await cell(2, 'sentence').click({ button: 'right' })
  await menu.getByTestId('row-menu-story').click()
  await expect(page.getByTestId('story-view')).toHaveAttribute(
    'data-annotation',
    `${await idAt(2)}`,
  )
  const worker = (await cell(2, 'workerId').textContent()) ?? ''
  await cell(2, 'sentence').click({ button: 'right' })
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(page.getByTestId('story-view')).toBeVisible()
  await cell(2, 'sentence').click({ button: 'right' })
  await expect(menu.getByTestId('row-menu-worker')).toHaveText(`Show worker ${worker}w`)
  await menu.getByTestId('row-menu-worker').click()
  await expect(page.getByTestId('worker-panel')).toBeVisible()
  await page.getByTestId('panel-close').first().click()

  // Several selected rows: the menu acts on all of them, in one change set.
  await cell(4, 'dimension').click()
  await page.keyboard.press('Shift+ArrowDown')
  await page.keyboard.press('Shift+ArrowDown')
  await expect(page.getByTestId('selection-count')).toContainText('3 selected')
  await cell(5, 'dimension').click({ button: 'right' })
  await expect(menu).toContainText('Rate the 3 selected')
  await menu.getByTestId('row-menu-rate').filter({ hasText: 'Rate 2' }).click()
  await expect(notes.filter({ hasText: '3 annotations rated 2' })).toHaveCount(1)
  await cell(5, 'dimension').click({ button: 'right' })
  await menu.getByTestId('row-menu-copy').click()
  await expect(notes.filter({ hasText: 'Copied 3 rows.' })).toHaveCount(1)

  // A row outside the selection becomes the one the menu acts on.
  await cell(9, 'dimension').click({ button: 'right' })
  await expect(page.getByTestId('selection-bar')).toHaveCount(0)
  await menu.getByTestId('row-menu-copy-worker').click()
  await expect(notes.filter({ hasText: 'Copied worker id' })).toHaveCount(1)
})
