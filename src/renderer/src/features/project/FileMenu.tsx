import { useState } from 'react'
import type { RecentProject } from '../../../../shared/contract/project'
import { showError } from '../messages/messages'
import { Menu, type MenuItem } from '../shell/Menu'
import { hasNativeDialogs, projectActions } from './project'

interface FileMenuProps {
  onAskPath: (mode: 'open' | 'create') => void
  onImport: () => void
  canImport: boolean
  onShare: () => void
  onJoin: () => void
}

export function FileMenu({ onAskPath, onImport, canImport, onShare, onJoin }: FileMenuProps) {
  const [recent, setRecent] = useState<RecentProject[] | null>(null)

  function loadRecent() {
    setRecent(null)
    projectActions
      .recent()
      .then(setRecent)
      .catch((e: unknown) => showError('Listing recent projects', e))
  }

  const items: MenuItem[] = [
    {
      label: 'New project…',
      shortcut: 'Ctrl+N',
      testId: 'menu-new',
      onSelect: () => (hasNativeDialogs ? void projectActions.pickCreate() : onAskPath('create')),
    },
    {
      label: 'Open project…',
      shortcut: 'Ctrl+O',
      testId: 'menu-open',
      onSelect: () => (hasNativeDialogs ? void projectActions.pickOpen() : onAskPath('open')),
    },
    {
      label: 'Open demo project',
      testId: 'menu-demo',
      onSelect: () => void projectActions.openDemo(),
    },
    { separator: true, label: '' },
    { label: 'Import data files…', shortcut: 'Ctrl+I', disabled: !canImport, onSelect: onImport },
    { separator: true, label: '' },
    {
      label: 'Share with a team…',
      testId: 'menu-share',
      disabled: !canImport,
      onSelect: onShare,
    },
    { label: 'Join a team…', testId: 'menu-join', onSelect: onJoin },
    { separator: true, label: '' },
    { heading: true, label: 'Recent' },
    ...recentItems(recent),
  ]

  return <Menu label="File" items={items} onOpen={loadRecent} testId="menu-file" />
}

function recentItems(recent: RecentProject[] | null): MenuItem[] {
  if (recent === null) return [{ heading: true, label: 'Loading…' }]
  if (recent.length === 0) return [{ heading: true, label: 'No recent projects' }]
  return recent.map((r) => ({
    label: r.exists ? r.name : `${r.name} (missing)`,
    title: r.path,
    disabled: !r.exists,
    testId: 'menu-recent',
    onSelect: () => void projectActions.open(r.path),
  }))
}
