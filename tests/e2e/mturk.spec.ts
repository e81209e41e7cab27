import { join } from 'node:path'
import { createStandin, seedDemo } from '../../src/main/mturk/standin/index'
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
  } finally {
    await stop(child)
    await standin.close()
  }
})
