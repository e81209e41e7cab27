import { join } from 'node:path'
import Database from 'better-sqlite3'
import { ftsQuery } from '../../src/shared/textSearch'
import { expect, gridTotal, openDemo, serve, stop, test } from './fixtures'

/** The grid's exact total, or NaN while it is being counted. */
const total = async (page: import('@playwright/test').Page): Promise<number> => {
  const value = await page.getByTestId('grid-total').getAttribute('data-total')
  return value ? Number(value) : NaN
}

test('filter by worker and dimension, read a story, step with j/k, keep a view across restarts', async ({
  page,
  workDir,
}) => {
  const dbPath = join(workDir, 'demo.winnow')
  let { served, child } = await serve(['--demo', '--db', dbPath], workDir)
  await openDemo(page, served.url)

  // The text filters show their whole placeholders: full-text search is the widest field.
  const width = async (id: string) => (await page.getByTestId(id).boundingBox())?.width ?? 0
  expect(await width('filter-text')).toBeGreaterThan(await width('filter-sentence'))
  expect(await width('filter-sentence')).toBeGreaterThan(await width('filter-story'))

  // Worker: type-ahead, pick the busiest worker.
  await page.getByTestId('filter-worker').fill('19')
  await page.getByTestId('worker-option').first().click()
  await expect(page.getByTestId('filter-chip')).toHaveCount(1)
  await expect.poll(() => total(page)).toBeLessThan(14_061)
  const byWorker = await total(page)

  // Dimension 1 on top of it: AND across filters.
  await page.getByTestId('filter-dimension').click()
  await page.getByTestId('filter-dimension-option').first().click()
  await page.keyboard.press('Escape')
  await expect.poll(() => total(page)).toBeLessThan(byWorker)
  const both = await total(page)
  expect(both).toBeGreaterThan(0)

  // Story view: Enter on a row, the sentence highlighted, j and k move between rows.
  await page.locator('.ag-row').first().click()
  await page.keyboard.press('Enter')
  const story = page.getByTestId('story-view')
  await expect(story.getByTestId('story-sentence-highlight')).toBeVisible()
  const first = await story.getAttribute('data-annotation')
  await page.keyboard.press('j')
  await expect(story).not.toHaveAttribute('data-annotation', first ?? '')
  await page.keyboard.press('k')
  await expect(story).toHaveAttribute('data-annotation', first ?? '')
  await page.keyboard.press('Escape')

  // A worker id opens the worker panel and leaves the keyboard on the row: Space selects it.
  await page.getByTestId('worker-link').first().click()
  await expect(page.getByTestId('worker-panel')).toBeVisible()
  await page.keyboard.press('Space')
  await expect(page.getByTestId('selection-count')).toContainText('1 selected')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('worker-panel')).toBeHidden()
  await page.getByTestId('clear-selection').click()

  // Shift+↓ grows a run of selected rows and Shift+↑ takes the last one back.
  await page.locator('.ag-row .ag-cell[col-id=dimension]').nth(2).click()
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown')
  await expect(page.getByTestId('selection-count')).toContainText('4 selected')
  await page.keyboard.press('Shift+ArrowUp')
  await expect(page.getByTestId('selection-count')).toContainText('3 selected')
  await page.getByTestId('clear-selection').click()
  await page.keyboard.press('Escape')

  // Save the view, restart the server on the same project, reopen it.
  await page.getByTestId('view-save').click()
  await page.getByTestId('view-name').fill('worker 19, dimension 1')
  await page.getByTestId('view-save-confirm').click()
  await stop(child)
  ;({ served, child } = await serve(['--db', dbPath], workDir))
  await openDemo(page, served.url)
  await page.getByTestId('view-list').click()
  await page.getByTestId('view-item').filter({ hasText: 'worker 19, dimension 1' }).click()
  await expect.poll(() => total(page)).toBe(both)
  await expect(page.getByTestId('filter-chip')).toHaveCount(2)
  await stop(child)
})

test('a story is found by the first characters of its id', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  // A narrow story column shows the id's first characters; the whole id is the cell's text.
  const cell = page.locator('.ag-row[row-index="0"] .ag-cell[col-id=storyId] span')
  const storyId = (await cell.textContent()) ?? ''
  expect(storyId).toMatch(/^[0-9a-f-]{36}$/)
  const shown = storyId.slice(0, 8)

  await page.getByTestId('filter-story').fill(shown)
  const option = page.getByTestId('story-option')
  await expect(option).toHaveCount(1)
  await expect(option).toContainText(storyId)
  // How the story opens tells it apart; its volume is what the filter will count.
  await expect(option).toContainText('Anna walked to the yard.')
  const volume = Number(
    ((await option.locator('.note').first().textContent()) ?? '').replace(/,/g, ''),
  )
  await page.getByTestId('filter-story').press('Enter')
  await expect(page.getByTestId('filter-chip')).toContainText(`story ${shown}…`)
  await expect.poll(() => total(page)).toBe(volume)
})

test('the keyboard goes from a filter field to the rows it found', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  const focusedRow = page.locator('[data-testid=grid] .ag-row:focus-within')

  await page.keyboard.press('/')
  await page.keyboard.type('yard')
  await expect.poll(() => total(page)).toBeLessThan(14_061)
  await page.keyboard.press('Enter')
  await expect(focusedRow).toHaveAttribute('row-index', '0')
  // j now steps through the rows instead of typing into the search.
  await page.keyboard.press('j')
  await expect(focusedRow).toHaveAttribute('row-index', '1')
  await expect(page.getByTestId('filter-text')).toHaveValue('yard')

  // From the worker type-ahead, once nothing is typed: ↓.
  await page.getByTestId('filter-worker').focus()
  await page.keyboard.press('ArrowDown')
  await expect(focusedRow).toHaveAttribute('row-index', '0')
})

test('typing fast, the rows come first and the total shown is the last filter’s, recounted plainly', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  // Each key sends its query; every older count is replaced, and none may land on the last filter.
  await page.getByTestId('filter-text').click()
  await page.keyboard.type('the day', { delay: 15 })
  await page.getByTestId('filter-sentence').click()
  await page.keyboard.type('the', { delay: 15 })
  await expect(page.getByTestId('filter-chip')).toHaveCount(2)
  const shown = await gridTotal(page)

  const db = new Database(demo.dbPath, { readonly: true })
  const plain = db
    .prepare(
      `SELECT count(*) FROM annotations a JOIN sentences s
         ON s.story_id = a.story_id AND s.idx = a.sentence_index
       WHERE s.text LIKE '%the%'
         AND a.id IN (SELECT rowid FROM annotation_search WHERE annotation_search MATCH ?)`,
    )
    .pluck()
    .get(ftsQuery('the day')) as number
  db.close()
  expect(plain).toBeGreaterThan(0)
  expect(shown).toBe(plain)
  await expect(page.locator('.ag-row').first()).toBeVisible()
})

test('typing a sentence fast runs no query that reads every sentence; a short one runs once typing pauses', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  const sentences: string[] = []
  page.on('request', (request) => {
    if (!request.url().endsWith('/api/review.query')) return
    const body = JSON.parse(request.postData() ?? '{}') as { filter?: { sentence?: string } }
    if (body.filter?.sentence !== undefined) sentences.push(body.filter.sentence)
  })
  const plainCount = (like: string): number => {
    const db = new Database(demo.dbPath, { readonly: true })
    const n = db
      .prepare(
        `SELECT count(*) FROM annotations a JOIN sentences s
           ON s.story_id = a.story_id AND s.idx = a.sentence_index WHERE s.text LIKE ?`,
      )
      .pluck()
      .get(like) as number
    db.close()
    return n
  }

  // "t" and "th" are under the trigram index's three characters: the keys after them replace them.
  await page.getByTestId('filter-sentence').click()
  await page.keyboard.type('the', { delay: 15 })
  await expect(page.getByTestId('filter-chip')).toHaveCount(1)
  await expect.poll(() => total(page)).toBe(plainCount('%the%'))
  expect(sentences).toEqual(['the'])

  // Two characters, then a pause: their rows come, and their total is the plain one.
  await page.keyboard.press('Backspace')
  await expect.poll(() => total(page)).toBe(plainCount('%th%'))
  expect(sentences).toEqual(['the', 'th'])
  await expect(page.locator('.ag-row').first()).toBeVisible()
})
