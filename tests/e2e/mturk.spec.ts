import { join } from 'node:path'
import { createStandin, seedDemo } from '../../standin/index'
import { expect, serve, stop, test } from './fixtures'

// `winnow serve` reads the key pair from the standard AWS variables; the stand-in accepts any pair.
const KEYS = {
  AWS_ACCESS_KEY_ID: 'AKIDE2ESTANDINKEY01',
  AWS_SECRET_ACCESS_KEY: 'e2e/secret+never-shown-0123456789',
}

test('connects to the stand-in, pulls, bonuses a worker and shows the record', async ({
  page,
  workDir,
}) => {
  const standin = await createStandin()
  const seed = seedDemo(standin.state, { hits: 12, assignmentsPerHit: 5, brokenEvery: 0 })
  Object.assign(process.env, KEYS)
  const { served, child } = await serve(['--db', join(workDir, 'mturk.winnow')], workDir)
  try {
    await page.goto(served.url)
    const status = page.getByTestId('status-counts')
    await expect(status).toContainText('0 submissions')

    // Connect: a custom endpoint; the key comes from the environment and is never shown.
    await page.getByTestId('mturk-open').click()
    await page.getByTestId('mturk-endpoint').selectOption('custom')
    await page.getByTestId('mturk-endpoint-url').fill(standin.url)
    await page.getByTestId('mturk-save').click()
    await expect(page.getByText(/environment variables/)).toBeVisible()
    await page.getByTestId('mturk-test').click()
    await expect(page.getByTestId('mturk-test-result')).toContainText('Connected')
    await expect(page.getByTestId('mturk-balance')).toContainText('$10,000.00')
    await expect(page.getByTestId('mturk-dialog')).not.toContainText(KEYS.AWS_SECRET_ACCESS_KEY)

    // Pull every HIT: progress, then what was added; the near-disposal HIT is called out.
    await page.getByTestId('mturk-pull').click()
    await expect(page.getByTestId('mturk-pull-progress')).toBeVisible()
    await expect(page.getByTestId('mturk-pull-result')).toContainText('60 new', { timeout: 30_000 })
    await expect(page.getByTestId('mturk-status-counts')).toContainText('Approved')
    await expect(page.getByTestId('mturk-disposal-warning')).toContainText(
      '1 HIT is within 10 days',
    )
    await page.getByTestId('mturk-close').click()

    await expect(status).toContainText('60 submissions')
    const link = page.getByTestId('worker-link').first()
    await expect(link).toBeVisible()
    const workerId = (await link.textContent()) ?? ''
    expect(seed.workers).toContain(workerId)

    // Bonus the worker from their panel; the confirmation shows the total against the balance.
    await link.click()
    const actions = page.getByTestId('worker-actions')
    await expect(actions).toBeVisible()
    await actions.getByTestId('worker-bonus').click()
    await page.getByTestId('bonus-amount').fill('0.75')
    await page.getByTestId('bonus-reason').fill('Thorough explanations')
    await expect(page.getByTestId('bonus-total')).toHaveText('$0.75')
    await expect(page.getByTestId('bonus-balance')).toHaveText('$10,000.00')
    await page.getByTestId('bonus-confirm').click()

    const record = actions.getByTestId('worker-action-record').first()
    await expect(record).toContainText('bonus')
    await expect(record).toContainText('$0.75 — Thorough explanations')
    await expect(record).toContainText('done')
    expect(standin.state.bonuses).toMatchObject([{ WorkerId: workerId, BonusAmount: '0.75' }])

    // The whole query selected (Ctrl+A in the grid): a bonus per worker of the query, counted
    // and paid by main; the confirmation states how many and the total against the balance.
    await page.getByTestId('panel-close').click()
    await page.locator('.ag-row').first().click()
    await page.keyboard.press('ControlOrMeta+a')
    await expect(page.getByTestId('selection-count')).toContainText(/All \d+ rows of this query/)
    await page.getByTestId('selection-mturk').click()
    const bonusItem = page.getByTestId('selection-mturk-bonus')
    await expect(bonusItem).toHaveText(/Bonus per worker… \(\d+\)/)
    const workers = Number(/\((\d+)\)/.exec((await bonusItem.textContent()) ?? '')?.[1])
    expect(workers).toBeGreaterThan(1)
    await bonusItem.click()
    await expect(page.getByTestId('mturk-action-targets')).toContainText(
      `${workers} assignments: one per worker`,
    )
    await page.getByTestId('bonus-amount').fill('0.10')
    await page.getByTestId('bonus-reason').fill('Whole batch')
    await expect(page.getByTestId('bonus-total')).toHaveText(`$${(workers * 0.1).toFixed(2)}`)
    await expect(page.getByTestId('bonus-balance')).toHaveText('$9,999.25')
    await page.getByTestId('bonus-confirm').click()
    await expect(page.getByTestId('mturk-action-dialog')).toBeHidden()
    const batch = standin.state.bonuses.filter((b) => b.Reason === 'Whole batch')
    expect(batch).toHaveLength(workers)
    expect(new Set(batch.map((b) => b.WorkerId)).size).toBe(workers)
  } finally {
    await stop(child)
    await standin.close()
  }
})

test('the native menu’s Settings ▸ Mechanical Turk opens the panel; a mapping file is checked and remembered', async ({
  page,
  demo,
}) => {
  // In the desktop app main sends `app.menu` on the event channel; here the first event stream is
  // answered with that event, and the page reconnects to the real one afterwards.
  let sendMenu = (): void => undefined
  const menuClicked = new Promise<void>((resolve) => (sendMenu = resolve))
  await page.route(
    '**/events',
    async (route) => {
      await menuClicked
      await route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: `data: ${JSON.stringify({ name: 'app.menu', payload: { command: 'mturkSettings' } })}\n\n`,
      })
    },
    { times: 1 },
  )
  await page.goto(demo.url)
  await expect(page.getByTestId('project-name')).toBeVisible()
  await expect(page.getByTestId('mturk-dialog')).toBeHidden()
  sendMenu()
  await expect(page.getByTestId('mturk-dialog')).toBeVisible()
  await expect(page.getByTestId('mturk-endpoint')).toBeVisible()

  // A mapping file with problems is refused, naming the file and the fields; a good one is
  // remembered for the project (shown again after a reload).
  const mapping = page.getByTestId('mturk-mapping')
  await expect(page.getByTestId('mturk-mapping-name')).toContainText('release columns')
  await page.getByTestId('mturk-mapping-input').setInputFiles({
    name: 'layout.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ sid: 'story_identifier', cause: '1_specificNL' })),
  })
  await expect(page.getByTestId('mturk-mapping-error')).toContainText('layout.json')
  await expect(page.getByTestId('mturk-mapping-error')).toContainText(
    'sid: unknown column story_identifier',
  )
  await expect(page.getByTestId('mturk-mapping-name')).toContainText('release columns')
  await page.getByTestId('mturk-mapping-input').setInputFiles({
    name: 'layout.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ sid: 'story_id', cause: '1_specificNL' })),
  })
  await expect(page.getByTestId('mturk-mapping-name')).toHaveText('layout.json (2 fields mapped)')
  await expect(page.getByTestId('mturk-mapping-error')).toBeHidden()
  await mapping.getByText('Which field fills which column').click()
  await expect(page.getByTestId('mturk-mapping-fields')).toContainText('cause → 1_specificNL')
  await page.reload()
  await page.getByTestId('mturk-open').click()
  await expect(page.getByTestId('mturk-mapping-name')).toHaveText('layout.json (2 fields mapped)')
  await page.getByTestId('mturk-mapping-clear').click()
  await expect(page.getByTestId('mturk-mapping-name')).toContainText('release columns')
})

test('the endpoint chosen before the stored settings arrive is not replaced by them', async ({
  page,
  demo,
}) => {
  // The stored settings answer late, as on a loaded machine.
  await page.route('**/api/mturk.settings', async (route) => {
    const response = await route.fetch()
    await new Promise((resolve) => setTimeout(resolve, 500))
    await route.fulfill({ response })
  })
  await page.goto(demo.url)
  await page.getByTestId('mturk-open').click()
  await page.getByTestId('mturk-endpoint').selectOption('custom')
  await page.getByTestId('mturk-endpoint-url').fill('http://127.0.0.1:4466')
  await expect(page.getByTestId('mturk-credentials-source')).not.toHaveText('Access key: …')
  await expect(page.getByTestId('mturk-endpoint')).toHaveValue('custom')
  await expect(page.getByTestId('mturk-endpoint-url')).toHaveValue('http://127.0.0.1:4466')
  await expect(page.getByTestId('mturk-save')).toBeEnabled()
})
