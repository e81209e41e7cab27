import { BrowserWindow, type WebContents, app, session, shell } from 'electron'
import { join } from 'node:path'
import icon from '../../../resources/icon.png?asset'

/** The only settings a Winnow window is ever created with. */
export function hardenedWebPreferences(preload: string): Electron.WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  }
}

export function createMainWindow(outDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Winnow',
    icon,
    webPreferences: hardenedWebPreferences(join(outDir, 'preload', 'index.cjs')),
  })
  window.once('ready-to-show', () => window.show())
  const devServer = process.env.ELECTRON_RENDERER_URL
  if (!app.isPackaged && devServer) void window.loadURL(devServer)
  else void window.loadFile(join(outDir, 'renderer', 'index.html'))
  return window
}

/**
 * Crowd text is untrusted, so the page may never leave the app: no navigation, no new windows,
 * no webviews, no permissions. Links the user clicks open in the system browser only when https.
 */
export function lockDownContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (url !== contents.getURL()) event.preventDefault()
  })
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url)
    return { action: 'deny' }
  })
}

export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  )
  session.defaultSession.setPermissionCheckHandler(() => false)
}
