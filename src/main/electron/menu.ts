import { Menu, type MenuItemConstructorOptions, app } from 'electron'
import type { MenuCommand } from '../../shared/contract/project'
import { type CollectionId, PAGES, pageDigit, pageShown } from '../../shared/pages'

/**
 * The native menu; each item asks the page to carry out the command, so both paths stay one.
 * Go lists the pages of the collections the project holds (`held`); the others wait under More
 * Collections with the same keys, so a first file can be imported on their page.
 */
export function installMenu(
  send: (command: MenuCommand) => void,
  held: readonly CollectionId[] = [],
): void {
  const item = (
    label: string,
    command: MenuCommand,
    accelerator?: string,
  ): MenuItemConstructorOptions => ({
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => send(command),
  })
  const goTo = (page: (typeof PAGES)[number]): MenuItemConstructorOptions => {
    const digit = pageDigit(page.id)
    return item(page.label, `go:${page.id}`, digit === null ? undefined : `CmdOrCtrl+${digit}`)
  }
  const shown = PAGES.filter((page) => pageShown(page, held))
  const hidden = PAGES.filter((page) => !pageShown(page, held))
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        item('New Project…', 'new', 'CmdOrCtrl+N'),
        item('Open Project…', 'open', 'CmdOrCtrl+O'),
        item('Open Demo Project', 'demo'),
        { type: 'separator' },
        item('Import Files…', 'import', 'CmdOrCtrl+I'),
        { type: 'separator' },
        item('Share with a Team…', 'share'),
        item('Join a Team…', 'join'),
        { type: 'separator' },
        { role: process.platform === 'darwin' ? 'close' : 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        item('Undo Rating Change', 'undo', 'CmdOrCtrl+Z'),
        item('Redo Rating Change', 'redo', 'CmdOrCtrl+Shift+Z'),
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    {
      label: 'Go',
      submenu: [
        ...shown.map(goTo),
        ...(hidden.length > 0
          ? [
              { type: 'separator' as const },
              { label: 'More Collections', submenu: hidden.map(goTo) },
            ]
          : []),
      ],
    },
    { label: 'Settings', submenu: [item('Mechanical Turk…', 'mturkSettings')] },
    { label: 'Help', submenu: [item('Keyboard Shortcuts', 'help', 'Shift+/')] },
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
