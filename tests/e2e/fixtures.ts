import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { type Page, test as base, expect } from '@playwright/test'

export interface Served {
  url: string
  token: string
  dir: string
  dbPath: string
}

// Origins of servers a test has stopped: the page's event stream retries them once a second, and
// those refused requests are the test's shutdown, not an error of the app.
const stoppedOrigins = new Set<string>()
const origins = new WeakMap<ChildProcess, string>()

/** Starts `winnow serve` (the built app) on a project in a fresh folder; stops it after the test. */
export async function serve(
  args: string[],
  dir: string,
): Promise<{ served: Omit<Served, 'dir' | 'dbPath'>; child: ChildProcess }> {
  const child = spawn(process.execPath, ['out/main/cli.js', 'serve', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // The test's folder holds the app's own files too (recent projects), not the user's.
    env: { ...process.env, TMPDIR: dir, WINNOW_DATA_DIR: dir },
  })
  const lines = createInterface({ input: child.stdout })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`winnow serve exited with ${code}`)))
  })
  const { url, token } = JSON.parse(first) as { url: string; token: string }
  origins.set(child, new URL(url).origin)
  return { served: { url, token }, child }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const origin = origins.get(child)
  if (origin) stoppedOrigins.add(origin)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** Opens the app at `url` on the demo project and waits for the grid's first count. */
export async function openDemo(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.getByTestId('grid-total')).toContainText('14,061 annotations')
}

/** The grid's exact total, once it has been counted. */
export async function gridTotal(page: Page): Promise<number> {
  await expect(page.getByTestId('grid-total')).not.toHaveAttribute('data-total', '')
  return Number(await page.getByTestId('grid-total').getAttribute('data-total'))
}

/** Opens a collection's page: its tab, or More collections while the project holds none of it. */
export async function openCollection(page: Page, id: 'protoqa' | 'crowdaq'): Promise<void> {
  await page
    .getByTestId('more-collections')
    .or(page.getByTestId(`page-tab-${id}`))
    .first()
    .waitFor()
  if ((await page.getByTestId(`page-tab-${id}`).count()) > 0) {
    await page.getByTestId(`page-tab-${id}`).click()
    return
  }
  await page.getByTestId('more-collections').click()
  await page.getByTestId(`more-collections-${id}`).click()
}

type Fixtures = { workDir: string; demo: Served }

export const test = base.extend<Fixtures>({
  // Every test also checks that the page logged no error: a grid feature whose module is missing,
  // a React warning turned error or an uncaught exception fails the test that met it.
  page: async ({ page }, use) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() !== 'error') return
      const { url } = message.location()
      if (url && stoppedOrigins.has(new URL(url).origin)) return
      errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    await use(page)
    expect(errors, 'errors logged by the page').toEqual([])
  },
  // eslint-disable-next-line no-empty-pattern
  workDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'winnow-e2e-'))
    await use(dir)
    rmSync(dir, { recursive: true, force: true })
  },
  demo: async ({ workDir }, use) => {
    const dbPath = join(workDir, 'demo.winnow')
    const { served, child } = await serve(['--demo', '--db', dbPath], workDir)
    await use({ ...served, dir: workDir, dbPath })
    await stop(child)
  },
})

export { expect }
