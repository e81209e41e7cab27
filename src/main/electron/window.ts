import { BrowserWindow, type WebContents, app, session, shell } from 'electron'
import { join } from 'node:path'
import icon from '../../../resources/icon.png?asset'

/** The only settings a Winnow window is ever created with. */
function hardenedWebPreferences(preload: string): Electron.WebPreferences {
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
  const devServer = devServerUrl(process.env, import.meta.env.DEV, app.isPackaged)
  if (devServer) void window.loadURL(devServer)
  else void window.loadFile(join(outDir, 'renderer', 'index.html'))
  return window
}

/**
 * The page's dev server, only in a build made by `electron-vite dev` (`import.meta.env.DEV`) and
 * only at a loopback address: anywhere else (`npm start` runs the unpackaged production build)
 * the variable would let any URL load with the bridge exposed.
 */
export function devServerUrl(
  env: Readonly<Record<string, string | undefined>>,
  devBuild: boolean,
  packaged: boolean,
): string | undefined {
  const url = env.ELECTRON_RENDERER_URL
  if (!devBuild || packaged || !url) return undefined
  try {
    const { protocol, hostname } = new URL(url)
    const loopback = hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
    return protocol === 'http:' && loopback ? url : undefined
  } catch {
    return undefined
  }
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
