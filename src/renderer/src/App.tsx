import { Fragment, Suspense, useCallback, useEffect, useState } from 'react'
import { isDesktop, onEvent } from './api'
import { ImportDialog } from './features/import/ImportDialog'
import { openImport } from './features/import/importDialogState'
import { useWindowDrop } from './features/import/useWindowDrop'
import { JobTray } from './features/jobs/JobTray'
import { MTurkButton } from './features/mturk/MTurkButton'
import { openMTurk } from './features/mturk/mturkState'
import { startJobFeed } from './features/jobs/jobs'
import { startHistoryFeed } from './features/ratings/ratingState'
import { Messages } from './features/messages/Messages'
import { showInfo } from './features/messages/messages'
import { FileMenu } from './features/project/FileMenu'
import { PathDialog } from './features/project/PathDialog'
import { StatusBar } from './features/project/StatusBar'
import { TeamDialog } from './features/team/TeamDialog'
import { TeamStatusView } from './features/team/TeamStatusView'
import { startTeamFeed } from './features/team/teamState'
import { Welcome } from './features/project/Welcome'
import {
  hasNativeDialogs,
  projectActions,
  projectState,
  startProjectFeed,
} from './features/project/project'
import { HelpOverlay } from './features/shell/HelpOverlay'
import { PageTabs } from './features/shell/PageTabs'
import { currentPage, goToPage, pageAt } from './features/shell/navigation'
import { pageViews } from './features/shell/pageViews'
import { Workspace } from './features/shell/Workspace'
import { emitCommand, onCommand } from './lib/commands'
import { isPrimaryModifier, isTypingTarget } from './lib/keys'
import { useStore } from './lib/store'
import { useLatest } from './lib/useLatest'
import { type PageId, isGoCommand, isPageId } from '../../shared/pages'

export function App() {
  const { loaded, project } = useStore(projectState)
  const page = useStore(currentPage)
  const [askPath, setAskPath] = useState<'open' | 'create' | null>(null)
  const [toolbarSlot, setToolbarSlot] = useState<HTMLElement | null>(null)
  const [statusSlot, setStatusSlot] = useState<HTMLElement | null>(null)
  const [help, setHelp] = useState(false)
  const [teamDialog, setTeamDialog] = useState<'share' | 'join' | null>(null)

  useEffect(() => onCommand((command) => command === 'help' && setHelp(true)), [])

  // "?" opens the key map from anywhere that is not a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || isPrimaryModifier(e) || e.altKey || isTypingTarget(e.target)) return
      e.preventDefault()
      setHelp(true)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  useEffect(() => {
    startProjectFeed()
    startJobFeed()
    startHistoryFeed()
    startTeamFeed()
  }, [])

  useEffect(() => {
    document.title = project ? `${project.name} — Winnow` : 'Winnow'
  }, [project])

  const commands = {
    new: () => (hasNativeDialogs ? void projectActions.pickCreate() : setAskPath('create')),
    open: () => (hasNativeDialogs ? void projectActions.pickOpen() : setAskPath('open')),
    demo: () => void projectActions.openDemo(),
    import: () => (project ? openImport() : showInfo('Open or create a project first.')),
    mturkSettings: () => (project ? openMTurk() : showInfo('Open or create a project first.')),
    share: () => (project ? setTeamDialog('share') : showInfo('Open or create a project first.')),
    join: () => setTeamDialog('join'),
  }
  const commandsRef = useLatest(commands)

  // The desktop app's native menu sends its commands here.
  useEffect(
    () =>
      onEvent('app.menu', ({ command }) => {
        if (command === 'undo' || command === 'redo' || command === 'help') emitCommand(command)
        else if (isGoCommand(command)) {
          const id = command.slice(3)
          if (isPageId(id)) goToPage(id)
        } else commandsRef.current[command]()
      }),
    [commandsRef],
  )

  // Alt+digit goes to a page anywhere (Ctrl+digit too in the desktop app, through its Go menu).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !/^Digit[1-9]$/.test(e.code)) return
      const id = pageAt(Number(e.code.slice(5)))
      if (!id || !projectState.get().project) return
      e.preventDefault()
      goToPage(id)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // In a browser there is no native menu: the page owns these shortcuts.
  useEffect(() => {
    if (isDesktop) return
    const onKey = (e: KeyboardEvent) => {
      if (!isPrimaryModifier(e) || e.altKey || e.shiftKey) return
      const key = e.key.toLowerCase()
      const command = key === 'n' ? 'new' : key === 'o' ? 'open' : key === 'i' ? 'import' : null
      if (!command) return
      e.preventDefault()
      commandsRef.current[command]()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [commandsRef])

  const onDrop = useCallback((files: File[]) => {
    if (!projectState.get().project)
      showInfo('Open or create a project first, then drop the files again.')
    else openImport(files)
  }, [])
  const dragging = useWindowDrop(onDrop)

  return (
    <div className="app">
      <header className="titlebar">
        <span className="app-name">Winnow</span>
        {project && (
          <>
            <span className="title-sep">—</span>
            <span className="project-name" data-testid="project-name" title={project.path}>
              {project.name}
            </span>
            {project.isDemo && <span className="badge">demo</span>}
            <PageTabs />
          </>
        )}
      </header>
      <nav className="toolbar" aria-label="Main">
        <FileMenu
          onAskPath={setAskPath}
          onImport={commands.import}
          canImport={project !== null}
          onShare={commands.share}
          onJoin={commands.join}
        />
        <button
          className="toolbar-button"
          data-testid="import-button"
          disabled={!project}
          title="Import data files (Ctrl+I), or drop files on the window"
          onClick={commands.import}
        >
          Import…
        </button>
        <MTurkButton />
        <div className="toolbar-group" ref={setToolbarSlot} />
        <div className="toolbar-spacer" />
        <button
          className="toolbar-button"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          data-testid="help-button"
          onClick={() => setHelp(true)}
        >
          ?
        </button>
      </nav>
      <main className="main">
        {!loaded ? (
          <div className="empty-state">Connecting…</div>
        ) : project ? (
          // One key over all of a project's pages: another project mounts every one afresh (a key
          // on each sibling would leave the old workspace mounted beside the new one).
          <Fragment key={project.path}>
            <Workspace
              active={page === 'review'}
              toolbarSlot={toolbarSlot}
              statusSlot={statusSlot}
            />
            <PageView page={page} />
          </Fragment>
        ) : (
          <Welcome onAskPath={setAskPath} />
        )}
      </main>
      <StatusBar>
        <span className="status-slot" ref={setStatusSlot} />
        <TeamStatusView />
      </StatusBar>
      <JobTray />
      <Messages />
      <ImportDialog />
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
      {teamDialog && <TeamDialog mode={teamDialog} onClose={() => setTeamDialog(null)} />}
      {askPath && (
        <PathDialog
          mode={askPath}
          onClose={() => setAskPath(null)}
          onSubmit={askPath === 'open' ? projectActions.open : projectActions.create}
        />
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-overlay-box">Drop files to import</div>
        </div>
      )}
    </div>
  )
}

/** The page on screen when it is not Review (whose workspace stays mounted behind the others). */
function PageView({ page }: { page: PageId }) {
  const View = pageViews[page]
  if (!View) return null
  return (
    <div className="page" data-testid={`page-${page}`}>
      <Suspense fallback={<div className="empty-state">Loading…</div>}>
        <View />
      </Suspense>
    </div>
  )
}
