#!/usr/bin/env node
// `winnow` runs the built command line (npm install builds it; `npm run build` refreshes it).
import { existsSync } from 'node:fs'

const cli = new URL('../out/main/cli.js', import.meta.url)
if (!existsSync(cli)) {
  process.stderr.write('winnow: the app is not built yet; run `npm run build` first.\n')
  process.exit(1)
}
await import(cli.href)
