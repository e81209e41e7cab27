import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, test } from './fixtures'

// `winnow serve` as the built command line runs it (the page must be built, as here).

test('serve ends with exit 1 and the reason when its project cannot be opened', async ({
  workDir,
}) => {
  const missing = join(workDir, 'no-such-folder', 'p.winnow')
  const child = spawn(process.execPath, ['out/main/cli.js', 'serve', '--db', missing], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  // A server left listening keeps the process alive: give it ten seconds, then stop it.
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearTimeout(timer)
  expect(code).toBe(1)
  expect(stderr).toContain(`winnow serve: ${missing}: the project cannot be opened`)
})

test('the page shows the app icon as its favicon, served from the app itself', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url)
  const href = await page.locator('link[rel="icon"]').getAttribute('href')
  expect(href).toBeTruthy()
  const response = await page.request.get(new URL(href ?? '', page.url()).href)
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toContain('image/svg+xml')
  expect(await response.text()).toContain('<svg')
})
