import type { Route } from '@playwright/test'
import { expect, gridTotal, openDemo, test } from './fixtures'
import { drawAudit } from './audit'
import { expectEntriesApart } from './layout'

test('draw an audit of 20, judge it with the keys, and read the interval', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-audits').click()
  await drawAudit(page, { n: 20, seed: 7, name: 'Twenty' })

  const view = page.getByTestId('audit-view')
  await expect(view).toBeVisible()
  await expect(page.getByTestId('audit-counts')).toContainText('20 open of 20 drawn')
  await expect(page.getByTestId('audit-interval')).toContainText('nothing judged yet')

  // 15 yes, 4 no, 1 skip, each key moving on to the next open item.
  const item = page.getByTestId('audit-item')
  for (let i = 0; i < 20; i++) {
    const id = await item.getAttribute('data-annotation')
    await page.keyboard.press(i < 15 ? 'y' : i < 19 ? 'n' : 's')
    if (i < 19) await expect(item).not.toHaveAttribute('data-annotation', id ?? '')
  }
  await expect(page.getByTestId('audit-counts')).toContainText('15 yes · 4 no · 1 skipped · 0 open')
  // Wilson 95 % interval of 15 of 19: 78.9 % (56.7–91.5 %).
  await expect(page.getByTestId('audit-interval')).toContainText(
    'Precision 78.9% (95% interval 56.7%–91.5%)',
  )
  await expect(page.getByTestId('audit-list')).toContainText('19 of 20 judged')

  // Drawing more appends new items; the judged ones stay.
  await page.getByTestId('audit-more-n').fill('5')
  await page.getByTestId('audit-more').click()
  await expect(page.getByTestId('audit-counts')).toContainText('5 open of 25 drawn')
})

test('an audit with a target keeps drawing until its interval is that narrow', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-audits').click()
  await drawAudit(page, { n: 5, seed: 3, target: 20 })
  const item = page.getByTestId('audit-item')
  await expect(page.getByTestId('audit-counts')).toContainText('5 open of 5 drawn')
  // 5 of 5 yes is 56.6–100 %, ±21.7 points: wider than ±20, so 10 more are drawn.
  for (let i = 0; i < 5; i++) {
    const id = await item.getAttribute('data-annotation')
    await page.keyboard.press('y')
    await expect(item).not.toHaveAttribute('data-annotation', id ?? '')
  }
  await expect(page.getByTestId('audit-counts')).toContainText('10 open of 15 drawn')
  await expect(page.getByTestId('audit-verdict')).toHaveText('not judged')
})

test('the worker to audit is picked from the matches of part of an id', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-audits').click()
  await page.getByTestId('audit-source').selectOption('worker')
  // Nothing is drawn from text that names no worker.
  await page.getByTestId('audit-worker').fill('no-such-worker')
  await expect(page.getByTestId('audit-worker-none')).toContainText('No worker matches')
  await expect(page.getByTestId('audit-draw')).toBeDisabled()

  await page.getByTestId('audit-worker').fill('2')
  const option = page.getByTestId('audit-worker-option').first()
  const id = (await option.locator('.mono').textContent()) ?? ''
  expect(id).toMatch(/^2/)
  await option.click()
  await expect(page.getByTestId('audit-worker-picked')).toHaveText(new RegExp(`^${id}`))
  await page.getByTestId('audit-n').fill('5')
  await page.getByTestId('audit-seed').fill('1')
  await page.getByTestId('audit-draw').click()
  await expect(page.getByTestId('audit-counts')).toContainText('5 open of 5 drawn')
  await expect(page.getByTestId('audit-view')).toContainText(`worker ${id}`)
  await expect(page.getByTestId('audit-item')).toContainText(`worker ${id}`)
})

test('a failed draw’s error ends when a later draw succeeds, and stays on its page', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-audits').click()
  // The demo rates every annotation: a sample of unrated ones fails.
  await page.getByTestId('audit-tier').selectOption('unrated')
  await page.getByTestId('audit-n').fill('5')
  await page.getByTestId('audit-draw').click()
  const error = page.getByTestId('error-message')
  await expect(error).toContainText('Drawing the audit failed')
  await expect(error).toContainText('selects no annotations')

  await page.getByTestId('audit-tier').selectOption('3')
  await page.getByTestId('audit-draw').click()
  await expect(page.getByTestId('audit-counts')).toContainText('5 open of 5 drawn')
  await expect(error).toHaveCount(0)

  // An error of this page does not follow the user to another.
  await page.getByTestId('audit-tier').selectOption('unrated')
  await page.getByTestId('audit-draw').click()
  await expect(error).toContainText('Drawing the audit failed')
  await page.getByTestId('page-tab-release').click()
  await expect(page.getByTestId('release-page')).toBeVisible()
  await expect(error).toHaveCount(0)
})

test('the audits list keeps each entry apart and inside the side column', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-audits').click()
  for (const seed of [1, 2]) {
    await drawAudit(page, {
      n: 3,
      seed,
      name: `A spot check of every annotation with a long name that needs two lines, seed ${seed}`,
    })
    await expect(page.getByTestId('audit-list').locator('li')).toHaveCount(seed)
  }
  await expectEntriesApart(
    page.locator('.audits-side'),
    page.getByTestId('audit-list').locator('button'),
  )
})

test('the audit form reads “Counting…” until the exact number it draws from arrives', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  // A text filter: the grid counts its total on the count thread, and so does the audit form.
  await page.getByTestId('filter-text').fill('yard')
  await page.getByTestId('filter-text').press('Enter')
  const yard = await gridTotal(page)
  expect(yard).toBeGreaterThan(0)
  expect(yard).toBeLessThan(14_061)

  // Each count's answer is held back until released, as on a project of ten million.
  const held: Array<{ route: Route; filter: string }> = []
  await page.route('**/api/review.count', (route) => {
    held.push({ route, filter: route.request().postData() ?? '' })
  })
  const release = async (at: number) => {
    const entry = held[at]
    if (!entry) throw new Error(`no count ${at} was asked for`)
    const response = await entry.route.fetch()
    await entry.route.fulfill({ response })
  }
  const matching = page.getByTestId('audit-matching')
  await page.getByTestId('page-tab-audits').click()
  await expect(matching).toHaveText('Counting…')
  await expect.poll(() => held.length).toBe(1)
  // The source changes before the first count answers: the newer one's number is shown.
  await page.getByTestId('audit-source').selectOption('grid')
  await expect.poll(() => held.length).toBe(2)
  expect(held[1]?.filter).toContain('yard')
  await expect(matching).toHaveText('Counting…')
  await release(0)
  await expect(matching).toHaveText('Counting…')
  await release(1)
  await expect(matching).toHaveText(`${yard.toLocaleString('en-US')} annotations to draw from`)

  await page.unroute('**/api/review.count')
  await page.getByTestId('audit-source').selectOption('all')
  await expect(matching).toHaveText('14,061 annotations to draw from')
})
