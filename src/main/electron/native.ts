import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * better-sqlite3 built for Electron's ABI lives beside the one built for Node (see
 * scripts/postinstall.js), so `npm test` and `npm start` work in one checkout without rebuilding.
 */
export function electronAddonPath(): string | undefined {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve('better-sqlite3/package.json'))
  const path = join(root, 'build-electron', 'Release', 'better_sqlite3.node')
  return existsSync(path) ? path : undefined
}
