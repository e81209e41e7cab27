import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// Browsers come from the system (Debian's chromium); Playwright never downloads one.
const chromium = process.env.WINNOW_CHROMIUM ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 90_000,
  workers: 1,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    headless: true,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      ...(existsSync(chromium) ? { executablePath: chromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
})
