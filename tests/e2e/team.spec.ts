import { execFileSync } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { releaseCsv } from '../helpers/glucose'
import { type PgServer, noPostgres, startPostgres } from '../helpers/postgres'
import { expect, serve, stop, test } from './fixtures'

/**
 * Team mode in Chromium: two serve-mode apps on two replicas of one team, against a real
 * PostgreSQL server started here. The lead shares from File ▸ Share with a team…, the reviewer
 * joins from File ▸ Join a team…, a rating made in one page shows in the other, and while the
 * server is stopped the status bar says offline with the work waiting, until both converge; a
 * change set the server refuses is reverted here from the status bar.
 */
test.skip(noPostgres !== null, `team mode needs PostgreSQL: ${noPostgres ?? ''}`)

let server: PgServer
test.beforeAll(async () => {
  server = await startPostgres()
})
test.afterAll(async () => {
  await server?.destroy()
})

function winnow(...argv: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['out/main/cli.js', ...argv, '--json'], {
    encoding: 'utf8',
  })
  return JSON.parse(out) as Record<string, unknown>
}

async function chooseFromFileMenu(page: Page, item: 'menu-share' | 'menu-join'): Promise<void> {
  await page.getByTestId('menu-file').click()
  await page.getByTestId(item).click()
  await expect(page.getByTestId('team-dialog')).toBeVisible()
}

/** The grid's rating of an annotation, by its row id. */
function pill(page: Page, id: string) {
  return page.locator(`.ag-row[row-id="${id}"] .ag-cell[col-id=rating] .rating-pill`).first()
}

test('two members: a rating in one page shows in the other; offline work waits and converges', async ({
  page,
  browser,
  workDir,
}) => {
  test.setTimeout(180_000)
  const lead = 'e2elead'
  const leadPassword = `pw-${Math.random().toString(36).slice(2)}`
  await server.createTeamDatabase('e2eteam', { user: lead, password: leadPassword })
  const pgpass = join(workDir, 'pgpass')
  writeFileSync(pgpass, `127.0.0.1:${server.port}:e2eteam:${lead}:${leadPassword}\n`, {
    mode: 0o600,
  })
  // Serve mode takes passwords by libpq's conventions; both apps read this file.
  process.env.PGPASSFILE = pgpass
  delete process.env.PGPASSWORD

  const leadPath = join(workDir, 'lead.winnow')
  winnow('import', releaseCsv(workDir, 'lead.csv', 30, 7), '--db', leadPath)

  // The lead shares the open project from the File menu.
  const a = await serve(['--db', leadPath], workDir)
  const b = await serve(['--db', join(workDir, 'scratch.winnow')], workDir)
  const pageB = await browser.newPage()
  try {
    await page.goto(a.served.url)
    await expect(page.getByTestId('grid-total')).toContainText('annotations')
    await chooseFromFileMenu(page, 'menu-share')
    await page.getByTestId('team-server').fill(server.url('e2eteam', lead))
    await page.getByTestId('team-name').fill(lead)
    await page.getByTestId('team-submit').click()
    await expect(page.getByTestId('team-dialog')).toHaveCount(0)
    await expect(page.getByTestId('team-sync')).toHaveText('Synced')

    const added = winnow('team', 'member', 'add', 'e2erev', '--role', 'reviewer', '--db', leadPath)
    appendFileSync(pgpass, `127.0.0.1:${server.port}:e2eteam:e2erev:${String(added.password)}\n`)

    // The reviewer joins from the File menu; the app opens the new replica when it is made.
    await pageB.goto(b.served.url)
    await chooseFromFileMenu(pageB, 'menu-join')
    await pageB.getByTestId('team-server').fill(server.url('e2eteam', 'e2erev'))
    await pageB.getByTestId('team-name').fill('e2erev')
    await pageB.getByTestId('team-path').fill(join(workDir, 'e2erev.winnow'))
    await pageB.getByTestId('team-submit').click()
    await expect(pageB.getByTestId('project-name')).toHaveText('e2erev', { timeout: 30_000 })
    await expect(pageB.getByTestId('team-sync')).toHaveText('Synced')
    await expect(page.getByTestId('team-others')).toContainText('e2erev')
    await expect(pageB.getByTestId('team-others')).toContainText(lead)

    // A rating made in page A shows in page B (the bound: within 2 s).
    const row = page.locator('.ag-row[row-index="0"]').first()
    const id = (await row.getAttribute('row-id')) ?? ''
    await expect(pill(pageB, id)).toBeVisible()
    const was = (await pill(page, id).textContent()) ?? ''
    const key = was === '3' ? '2' : '3'
    await page.locator('.ag-row[row-index="0"] .ag-cell[col-id=dimension]').click()
    await page.keyboard.press(key)
    await expect(pill(page, id)).toHaveText(key)
    await expect(pill(pageB, id)).toHaveText(key, { timeout: 2_000 })

    // The server stops: A says offline, and a rating made meanwhile waits in A's project.
    await server.stop()
    try {
      await expect(page.getByTestId('team-status')).toHaveAttribute('data-connection', 'offline')
      await expect(page.getByTestId('team-sync')).toContainText('Offline')
      await expect(page.getByTestId('team-sync')).toContainText('last reached')
      const offlineKey = key === '3' ? '1' : '0'
      await page.locator('.ag-row[row-index="0"] .ag-cell[col-id=dimension]').click()
      await page.keyboard.press(offlineKey)
      await expect(pill(page, id)).toHaveText(offlineKey)
      await expect(page.getByTestId('team-status')).toHaveAttribute('data-pending', '1')
      await expect(page.getByTestId('team-sync')).toContainText('1 change set waiting to push')
      await expect(pill(pageB, id)).toHaveText(key)
      await server.start()
      // Back: A pushes what waited, B pulls it, and both say so.
      await expect(page.getByTestId('team-sync')).toHaveText('Synced', { timeout: 30_000 })
      await expect(pill(pageB, id)).toHaveText(offlineKey, { timeout: 30_000 })
      await expect(pageB.getByTestId('team-sync')).toHaveText('Synced', { timeout: 30_000 })
    } finally {
      await server.start().catch(() => undefined)
    }

    // A policy run on the reviewer's replica (from the command line beside the app) is refused by
    // the server: the status bar says so and offers to revert it here, after which it is synced.
    winnow('policy', 'run', 'policies/glucose-cleanup.ts', '--db', join(workDir, 'e2erev.winnow'))
    await expect(pageB.getByTestId('team-problem')).toContainText('refused change set', {
      timeout: 20_000,
    })
    await expect(pageB.getByTestId('team-status')).toHaveAttribute('data-pending', '1')
    await pageB.getByTestId('team-withdraw').click()
    await expect(pageB.getByTestId('team-sync')).toHaveText('Synced', { timeout: 20_000 })
    await expect(pageB.getByTestId('team-problem')).toHaveCount(0)
    await expect(pageB.getByTestId('team-withdraw')).toHaveCount(0)
  } finally {
    await pageB.close()
    await stop(a.child)
    await stop(b.child)
  }
})
