import { BrowserWindow, app } from 'electron'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { EventName } from '../shared/contract'
import { setDefaultNativeBinding } from './db/connection'
import { ensureDemoProject } from './demo'
import { nativeDialogs } from './electron/dialogs'
import { EVENT_CHANNEL, registerIpc } from './electron/ipc'
import { installMenu } from './electron/menu'
import { safeStorageSecrets } from './electron/credentials'
import { safeStorageTeamPasswords } from './electron/teamPasswords'
import { recentProjects } from './electron/recents'
import { createMainWindow, denyAllPermissions, lockDownContents } from './electron/window'
import { electronAddonPath } from './electron/native'
import { Session } from './session'

// The Electron entry: window, menu, IPC registration and lifecycle. Everything else is the core.
const outDir = fileURLToPath(new URL('..', import.meta.url))
let window: BrowserWindow | null = null

const addon = electronAddonPath()
if (addon) setDefaultNativeBinding(addon)

// WINNOW_DATA_DIR moves the app's own files, as it does serve mode's (appData.ts).
if (process.env.WINNOW_DATA_DIR) app.setPath('userData', process.env.WINNOW_DATA_DIR)
const demoPath = join(app.getPath('userData'), 'demo.winnow')
const recents = recentProjects(join(app.getPath('userData'), 'recent.json'))
const session = new Session(
  'electron',
  (name: EventName, payload: unknown) => {
    window?.webContents.send(EVENT_CHANNEL, name, payload)
    if (name === 'project.changed') refreshMenu()
  },
  {
    demoPath,
    recents,
    secrets: safeStorageSecrets(join(app.getPath('userData'), 'mturk-credentials.bin')),
    teamPasswords: safeStorageTeamPasswords(join(app.getPath('userData'), 'team-passwords.bin')),
  },
)
const dialogs = nativeDialogs(() => window)

app.on('web-contents-created', (_event, contents) => lockDownContents(contents))

void app.whenReady().then(() => {
  denyAllPermissions()
  registerIpc(
    (event) =>
      window !== null &&
      event.sender === window.webContents &&
      event.senderFrame === window.webContents.mainFrame,
    () => ({ session, dialogs }),
  )
  refreshMenu()
  openStartProject()
  window = createMainWindow(outDir)
  window.on('closed', () => {
    window = null
  })
})

let menuFor: string | null = null

/** The menu's Go list follows the collections the open project holds (an import may add one). */
function refreshMenu(): void {
  if (!app.isReady()) return
  const held = session.info()?.collections ?? []
  if (menuFor === held.join()) return
  menuFor = held.join()
  installMenu((command) => window?.webContents.send(EVENT_CHANNEL, 'app.menu', { command }), held)
}

/** The last project that still exists, else the demo, so there is always something to look at. */
function openStartProject(): void {
  const last = recents.list().find((r) => r.exists)
  try {
    if (last) {
      session.open(last.path)
      return
    }
  } catch (error) {
    console.error('could not reopen the last project', error)
  }
  ensureDemoProject(demoPath)
  session.open(demoPath, { isDemo: true })
}

app.on('window-all-closed', () => {
  session.close()
  app.quit()
})
