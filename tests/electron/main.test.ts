import { beforeEach, describe, expect, it, vi } from 'vitest'
import { callNames } from '../../src/shared/contract'
import type { MenuCommand } from '../../src/shared/contract/project'

// A stand-in for the `electron` module: the real binary cannot run here, so this records what
// main registers and how it builds the window.
const registered = new Map<string, (event: unknown, ...args: unknown[]) => unknown>()
const windows: { options: Record<string, unknown> }[] = []
const contentsHandlers = new Map<
  string,
  (event: { preventDefault(): void }, url?: string) => void
>()
let windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null
const openExternal = vi.fn()
let menuTemplate: MenuItem[] = []

interface MenuItem {
  label?: string
  role?: string
  accelerator?: string
  submenu?: MenuItem[]
  click?: () => void
}

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
      registered.set(channel, handler)
    },
  },
  BrowserWindow: class {
    webContents = {}
    constructor(options: Record<string, unknown>) {
      windows.push({ options })
    }
    once() {}
    loadFile() {
      return Promise.resolve()
    }
    loadURL() {
      return Promise.resolve()
    }
  },
  app: { isPackaged: true },
  session: {
    defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
  },
  shell: { openExternal },
  Menu: {
    buildFromTemplate: (template: MenuItem[]) => {
      menuTemplate = template
      return { template }
    },
    setApplicationMenu: vi.fn(),
  },
}))

const { registerIpc, CALL_CHANNEL_PREFIX } = await import('../../src/main/electron/ipc')
const { createMainWindow, devServerUrl, lockDownContents } =
  await import('../../src/main/electron/window')
const { Session } = await import('../../src/main/session')
const { installMenu } = await import('../../src/main/electron/menu')

describe('Electron main', () => {
  beforeEach(() => {
    registered.clear()
    windows.length = 0
  })

  it('registers one validated channel per contract call and ignores foreign senders', async () => {
    const session = new Session('electron', () => undefined)
    const trusted = { id: 'ours' }
    registerIpc(
      (event) => (event as { sender: unknown }).sender === trusted,
      () => ({ session }),
    )
    for (const name of callNames) expect(registered.has(CALL_CHANNEL_PREFIX + name)).toBe(true)

    const open = registered.get(CALL_CHANNEL_PREFIX + 'project.open')!
    await expect(open({ sender: { id: 'evil' } }, { path: 'x.winnow' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'untrusted-sender' },
    })
    await expect(open({ sender: trusted }, { path: 7 })).resolves.toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'path' },
    })
    await expect(
      open({ sender: trusted }, { path: '/no/such/file.winnow' }),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'no-such-project' },
    })
  })

  it('creates the window sandboxed, isolated, without node', () => {
    createMainWindow('/app/out')
    const prefs = windows[0]?.options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    })
    expect(String(prefs.preload)).toMatch(/preload[/\\]index\.cjs$/)
  })

  it('blocks navigation, redirects, webviews and new windows', () => {
    contentsHandlers.clear()
    lockDownContents({
      on: (name: string, handler: (event: { preventDefault(): void }, url?: string) => void) => {
        contentsHandlers.set(name, handler)
      },
      getURL: () => 'file:///app/out/renderer/index.html',
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => {
        windowOpenHandler = handler
      },
    } as never)
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() }
      contentsHandlers.get(name)?.(event, 'https://example.com/')
      expect(event.preventDefault).toHaveBeenCalled()
    }
    expect(windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    expect(windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(openExternal).toHaveBeenCalledTimes(1)
  })

  it('sends the page one command per menu item, Settings ▸ Mechanical Turk included', () => {
    const sent: MenuCommand[] = []
    installMenu((command) => sent.push(command))
    const find = (menu: string, label: string): MenuItem | undefined =>
      menuTemplate.find((m) => m.label === menu)?.submenu?.find((i) => i.label === label)

    find('Settings', 'Mechanical Turk…')?.click?.()
    find('File', 'Import Files…')?.click?.()
    find('File', 'Share with a Team…')?.click?.()
    find('File', 'Join a Team…')?.click?.()
    expect(sent).toEqual(['mturkSettings', 'import', 'share', 'join'])

    // Every item with a click sends exactly one command, and every command is sent by one item.
    const clickable = menuTemplate.flatMap((m) => m.submenu ?? []).filter((i) => i.click)
    sent.length = 0
    for (const i of clickable) i.click?.()
    expect(sent).toHaveLength(clickable.length)
    expect(new Set(sent).size).toBe(sent.length)
    expect(sent).toEqual(expect.arrayContaining(['new', 'open', 'import', 'mturkSettings', 'help']))
  })

  it('lists in Go the collections the project holds; the others keep their keys under More', () => {
    const go = (): MenuItem[] => menuTemplate.find((m) => m.label === 'Go')?.submenu ?? []
    const keys = (items: MenuItem[]) => items.map((i) => [i.label, i.accelerator])

    installMenu(() => undefined, ['crowdaq'])
    expect(keys(go()).slice(0, 8)).toEqual([
      ['Review', 'CmdOrCtrl+1'],
      ['Today', 'CmdOrCtrl+2'],
      ['Audits', 'CmdOrCtrl+3'],
      ['Dashboard', 'CmdOrCtrl+4'],
      ['Policies', 'CmdOrCtrl+5'],
      ['Release', 'CmdOrCtrl+6'],
      ['CROWDAQ', 'CmdOrCtrl+8'],
      [undefined, undefined],
    ])
    const more = go().find((i) => i.label === 'More Collections')
    expect(keys(more?.submenu ?? [])).toEqual([
      ['ProtoQA', 'CmdOrCtrl+7'],
      ['HALIE', 'CmdOrCtrl+9'],
    ])

    installMenu(() => undefined, ['protoqa', 'crowdaq', 'halie'])
    expect(go().map((i) => i.label)).not.toContain('More Collections')
    expect(keys(go()).slice(6)).toEqual([
      ['ProtoQA', 'CmdOrCtrl+7'],
      ['CROWDAQ', 'CmdOrCtrl+8'],
      ['HALIE', 'CmdOrCtrl+9'],
    ])
  })
})

describe('the dev server address', () => {
  const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173/' }
  it('is honoured only in a dev build, unpackaged, at a loopback http address', () => {
    expect(devServerUrl(env, true, false)).toBe('http://localhost:5173/')
    // `npm start` runs the unpackaged production build: the variable must not load a page there.
    expect(devServerUrl(env, false, false)).toBeUndefined()
    expect(devServerUrl(env, true, true)).toBeUndefined()
    expect(
      devServerUrl({ ELECTRON_RENDERER_URL: 'https://example.com/' }, true, false),
    ).toBeUndefined()
    expect(devServerUrl({ ELECTRON_RENDERER_URL: 'not a url' }, true, false)).toBeUndefined()
    expect(devServerUrl({}, true, false)).toBeUndefined()
  })
})
