// Draws the app icon's PNG sizes from resources/icon.svg in Chromium, so the one drawing stays
// the source: `node scripts/icons.js` after editing the SVG. Sizes: the window and taskbar use
// 16–256, packagers want 512 and 1024.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const resources = join(dirname(dirname(fileURLToPath(import.meta.url))), 'resources')
const svg = readFileSync(join(resources, 'icon.svg'), 'utf8')
const sizes = [16, 32, 48, 64, 128, 256, 512, 1024]

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
const page = await browser.newPage()
for (const size of sizes) {
  await page.setViewportSize({ width: size, height: size })
  const sized = svg.replace('width="64" height="64"', `width="${size}" height="${size}"`)
  await page.setContent(`<body style="margin:0;background:transparent">${sized}</body>`)
  const png = await page.screenshot({
    omitBackground: true,
    clip: { x: 0, y: 0, width: size, height: size },
  })
  writeFileSync(join(resources, size === 512 ? 'icon.png' : `icon-${size}.png`), png)
}
await browser.close()
