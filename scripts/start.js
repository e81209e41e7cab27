// `npm start`: build, then open the desktop app on the last project (or the demo). Where Electron
// cannot run (no binary, or no Electron build of better-sqlite3), serve the same app to a browser.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = dirname(dirname(fileURLToPath(import.meta.url)))
const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
  { stdio: 'inherit', cwd: root },
)
if (build.status !== 0) process.exit(build.status ?? 1)

const electron = (() => {
  try {
    return require('electron')
  } catch {
    return null
  }
})()
const addon = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build-electron',
  'Release',
  'better_sqlite3.node',
)
const canRunElectron =
  typeof electron === 'string' &&
  existsSync(electron) &&
  existsSync(addon) &&
  (process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY)

const child = canRunElectron
  ? spawn(electron, ['.'], { stdio: 'inherit', cwd: root })
  : (console.log(
      'Electron cannot start here (no Electron binary, no Electron build of better-sqlite3, or no display); serving the app on 127.0.0.1 instead.',
    ),
    spawn(process.execPath, [join(root, 'out', 'main', 'cli.js'), 'serve', '--demo'], {
      stdio: 'inherit',
      cwd: root,
    }))
child.on('exit', (code) => process.exit(code ?? 0))
process.on('SIGINT', () => child.kill('SIGINT'))
