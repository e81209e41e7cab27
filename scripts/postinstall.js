// After `npm install`: build the app (so `npx winnow` works at once) and, where Electron's binary
// is installed, a second copy of better-sqlite3 for Electron's ABI beside the one for Node.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = dirname(dirname(fileURLToPath(import.meta.url)))

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options })
  return result.status === 0
}

if (
  !run(process.execPath, [
    join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'),
    'build',
  ])
) {
  process.exit(1)
}

const electronBinary = (() => {
  try {
    return require('electron')
  } catch {
    return null
  }
})()
if (typeof electronBinary !== 'string' || !existsSync(electronBinary)) {
  console.log(
    'winnow: Electron binary not installed; skipping the Electron build of better-sqlite3 (npm test and serve mode do not need it).',
  )
  process.exit(0)
}

const sqliteDir = dirname(require.resolve('better-sqlite3/package.json'))
const target = join(sqliteDir, 'build-electron', 'Release', 'better_sqlite3.node')
const electronVersion = require('electron/package.json').version
if (existsSync(target)) process.exit(0)

// Build in a copy so the Node build that tests use stays untouched.
const work = mkdtempSync(join(tmpdir(), 'winnow-sqlite-electron-'))
cpSync(sqliteDir, work, {
  recursive: true,
  filter: (p) => !p.includes(`${join(sqliteDir, 'build')}`),
})
const env = {
  ...process.env,
  npm_config_runtime: 'electron',
  npm_config_target: electronVersion,
  npm_config_disturl: 'https://electronjs.org/headers',
}
const built =
  run(
    'npx',
    ['--no-install', 'prebuild-install', '--runtime', 'electron', '--target', electronVersion],
    { cwd: work, env },
  ) ||
  run(
    'npx',
    [
      '--yes',
      'node-gyp',
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      '--runtime=electron',
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: work, env },
  )
if (built && existsSync(join(work, 'build', 'Release', 'better_sqlite3.node'))) {
  mkdirSync(dirname(target), { recursive: true })
  cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target)
  console.log(`winnow: built better-sqlite3 for Electron ${electronVersion}.`)
} else {
  console.warn(
    'winnow: could not build better-sqlite3 for Electron; `npm start` will fall back to serve mode.',
  )
}
rmSync(work, { recursive: true, force: true })
