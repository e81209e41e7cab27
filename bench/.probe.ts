import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { chromium } from 'playwright-core'
const child = spawn(process.execPath, ['out/main/cli.js', 'serve', '--demo', '--db', '/tmp/probe-demo.winnow', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] })
const line = await new Promise<string>((r) => createInterface({ input: child.stdout }).once('line', r))
const { url } = JSON.parse(line) as { url: string }
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
await page.goto(url)
await page.waitForTimeout(3000)
console.log(await page.evaluate(`document.querySelector('[data-testid=grid-total]')?.outerHTML`))
console.log(await page.evaluate(`[...document.querySelectorAll('.ag-center-cols-container .ag-row')].slice(0,2).map(r => r.outerHTML.slice(0, 600)).join('\\n')`))
console.log(await page.evaluate(`(() => { const v = document.querySelector('.ag-body-viewport'); return [v.scrollHeight, v.clientHeight] })()`))
await browser.close(); child.kill()
