import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { api, isDesktop } from '../../api'
import { onCommand } from '../../lib/commands'
import { formatInstant } from '../../lib/format'
import { isPrimaryModifier, isTypingTarget } from '../../lib/keys'
import { useStore } from '../../lib/store'
import { isEmptyFilter } from '../../../../shared/filter'
import { openImport } from '../import/importDialogState'
import { FilterBar } from '../grid/FilterBar'
import { ReviewGrid, gridTakesAsOf } from '../grid/ReviewGrid'
import { SelectionBar } from '../grid/SelectionBar'
import { focusGrid } from '../grid/actions'
import { digitOf, explainDigit } from '../grid/ratingKeys'
import {
  WorkspaceContext,
  createWorkspaceModel,
  currentFilter,
  goBack,
  goForward,
  setFilter,
  useWorkspace,
} from '../grid/workspaceModel'
import { AsOfPicker } from '../ratings/AsOfPicker'
import { asOfChangeSet, viewAsOf } from '../ratings/asOfView'
import { HistoryPanel } from '../ratings/HistoryPanel'
import { RatingCounts } from '../ratings/RatingCounts'
import { asOf, redo, refreshUndo, undo, undoState } from '../ratings/ratingState'
import { loadScale } from '../ratings/scale'
import { StoryView } from '../story/StoryView'
import { WorkerPanel } from '../workers/WorkerPanel'
import { reviewFilter, reviewRequest } from './navigation'

interface WorkspaceProps {
  /** False while another page is on screen: the workspace stays mounted (the grid keeps its place) but hidden and deaf to keys. */
  active: boolean
  /** Where the workspace puts its toolbar buttons and status items (owned by the app shell). */
  toolbarSlot: HTMLElement | null
  statusSlot: HTMLElement | null
}

/** The review workspace of one open project: filters, grid, side panels, ratings tools. */
export function Workspace({ active, toolbarSlot, statusSlot }: WorkspaceProps) {
  const [model] = useState(createWorkspaceModel)

  // Other pages read what the grid shows, and ask it to show a filter of theirs.
  useEffect(() => {
    const publish = () => reviewFilter.set(currentFilter(model))
    publish()
    return model.filter.subscribe(publish)
  }, [model])
  useEffect(() => {
    const take = () => {
      const request = reviewRequest.get()
      if (!request) return
      if (request.filter) setFilter(model, request.filter)
      if (request.worker) model.panel.set({ kind: 'worker', workerId: request.worker })
      if (request.changeSet !== undefined)
        model.panel.set({ kind: 'history', changeSet: request.changeSet })
    }
    take()
    return reviewRequest.subscribe(take)
  }, [model])

  useEffect(() => {
    loadScale()
    refreshUndo()
    asOf.set(null)
  }, [])

  useEffect(
    () =>
      onCommand((command) => {
        if (command !== 'undo' && command !== 'redo') return
        // The native Edit menu owns Ctrl+Z: in a text field it means text undo, elsewhere ratings.
        if (isTypingTarget(document.activeElement)) document.execCommand(command)
        else void (command === 'undo' ? undo() : redo())
      }),
    [],
  )

  useEffect(() => {
    if (!active) return
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        e.preventDefault()
        if (e.key === 'ArrowLeft') goBack(model)
        else goForward(model)
        return
      }
      if (isTypingTarget(e.target)) return
      // A digit that reached this far rated nothing (the grid and the story view take theirs).
      if (
        digitOf(e) !== undefined &&
        !e.defaultPrevented &&
        !e.altKey &&
        !isPrimaryModifier(e) &&
        !document.querySelector('.modal-backdrop')
      ) {
        explainDigit(e)
        return
      }
      // In the desktop app the native Edit menu owns these keys and sends `app.menu` commands.
      if (!isDesktop && isPrimaryModifier(e) && e.key.toLowerCase() === 'z') {
        e.preventDefault()
        void (e.shiftKey ? redo() : undo())
        return
      }
      if (!isDesktop && isPrimaryModifier(e) && e.key.toLowerCase() === 'y') {
        e.preventDefault()
        void redo()
        return
      }
      if (
        e.key === 'Escape' &&
        model.panel.get().kind !== 'none' &&
        !document.querySelector('.modal-backdrop')
      ) {
        model.panel.set({ kind: 'none' })
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [model, active])

  return (
    <WorkspaceContext.Provider value={model}>
      <div className="workspace" hidden={!active}>
        <FilterBar />
        <div className="workspace-body">
          <div className="grid-area">
            <AsOfBanner />
            <SelectionBar />
            <ReviewGrid />
            <EmptyResult />
          </div>
          <SidePanels active={active} />
        </div>
      </div>
      {active && toolbarSlot && createPortal(<WorkspaceTools />, toolbarSlot)}
      {active && statusSlot && createPortal(<RatingCounts />, statusSlot)}
    </WorkspaceContext.Provider>
  )
}

function WorkspaceTools() {
  const model = useWorkspace()
  const panel = useStore(model.panel)
  const { undo: canUndo, redo: canRedo } = useStore(undoState)
  return (
    <>
      <span className="toolbar-sep" />
      <button
        className="toolbar-button"
        disabled={!canUndo}
        title={canUndo ? `Undo “${canUndo.description}” (Ctrl+Z)` : 'Nothing to undo'}
        data-testid="undo"
        onClick={() => void undo()}
      >
        Undo
      </button>
      <button
        className="toolbar-button"
        disabled={!canRedo}
        title={canRedo ? `Redo “${canRedo.description}” (Ctrl+Shift+Z)` : 'Nothing to redo'}
        data-testid="redo"
        onClick={() => void redo()}
      >
        Redo
      </button>
      <button
        className="toolbar-button"
        aria-pressed={panel.kind === 'history'}
        data-testid="history-button"
        onClick={() =>
          model.panel.set(panel.kind === 'history' ? { kind: 'none' } : { kind: 'history' })
        }
      >
        History
      </button>
      <span className="toolbar-sep" />
      <AsOfPicker />
    </>
  )
}

function AsOfBanner() {
  const when = useStore(asOf)
  const nothingRated = useNothingRatedBy(when)
  if (when === null) return null
  const changeSet = asOfChangeSet(when)
  return (
    <div className="as-of-banner" role="status" data-testid="as-of-banner">
      <span>
        {gridTakesAsOf ? 'Ratings' : 'Rating counts (status bar)'} as recorded by{' '}
        {changeSet !== null && <strong>change set #{changeSet} </strong>}
        <strong>{changeSet !== null ? `(${formatInstant(when)})` : formatInstant(when)}</strong>
        {gridTakesAsOf ? '' : '; the grid still shows current ratings'}: what the project had
        recorded by then, not commit or submission dates. Ratings cannot be changed while looking at
        the past.
        {nothingRated && (
          <strong data-testid="as-of-nothing">
            {' '}
            Nothing had been rated by then, so every annotation shows as unrated: the ratings, an
            import’s included, were recorded later.
          </strong>
        )}
      </span>
      <button className="small" onClick={() => viewAsOf(null)}>
        Back to now
      </button>
    </div>
  )
}

/** Whether no annotation had a rating as recorded by `when` (a moment before the data came). */
function useNothingRatedBy(when: number | null): boolean {
  const [nothing, setNothing] = useState<{ when: number; nothing: boolean } | null>(null)
  useEffect(() => {
    if (when === null) return
    let live = true
    api.ratings
      .counts({ asOf: when })
      .then(({ byRating }) => {
        const rated = Object.entries(byRating).some(([k, n]) => k !== 'unrated' && n > 0)
        if (live) setNothing({ when, nothing: !rated })
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [when])
  return nothing !== null && nothing.when === when && nothing.nothing
}

function EmptyResult() {
  const model = useWorkspace()
  const total = useStore(model.total)
  const filtered = !isEmptyFilter(useStore(model.filter).history.present)
  if (total !== 0) return null
  return (
    <div className="grid-empty" data-testid="grid-empty">
      {filtered ? (
        <>
          <p>No annotations match these filters.</p>
          <button
            className="primary"
            data-testid="clear-filters"
            onClick={() => setFilter(model, {})}
          >
            Clear filters
          </button>
        </>
      ) : (
        <>
          <p>No annotations in this project yet.</p>
          <button className="primary" onClick={() => openImport()}>
            Import data files…
          </button>
          <p className="note">or drop GLUCOSE CSV files anywhere on the window</p>
        </>
      )}
    </div>
  )
}

const MIN_SIDE = 320
const MAX_SIDE = 900

function SidePanels({ active }: { active: boolean }) {
  const model = useWorkspace()
  const panel = useStore(model.panel)
  const [width, setWidth] = useState(460)
  const dragging = useRef<{ x: number; width: number } | null>(null)
  const shown = active && panel.kind !== 'none'
  // Toasts stand clear of the panel's controls (styles.css reads the width).
  useEffect(() => {
    if (!shown) return
    const root = document.documentElement.style
    root.setProperty('--side-width', `${width}px`)
    return () => {
      root.removeProperty('--side-width')
    }
  }, [shown, width])
  if (panel.kind === 'none') return null
  const close = () => {
    model.panel.set({ kind: 'none' })
    focusGrid(model)
  }
  return (
    <aside className="side" style={{ width }}>
      <div
        className="side-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize panel"
        onPointerDown={(e) => {
          dragging.current = { x: e.clientX, width }
          e.currentTarget.setPointerCapture(e.pointerId)
        }}
        onPointerMove={(e) => {
          const d = dragging.current
          if (d) setWidth(Math.max(MIN_SIDE, Math.min(MAX_SIDE, d.width + d.x - e.clientX)))
        }}
        onPointerUp={() => {
          dragging.current = null
        }}
      />
      {panel.kind === 'story' && <StoryView onClose={close} />}
      {panel.kind === 'worker' && (
        <WorkerPanel key={panel.workerId} workerId={panel.workerId} onClose={close} />
      )}
      {panel.kind === 'history' && (
        <HistoryPanel
          key={panel.changeSet ?? 'all'}
          onClose={close}
          {...(panel.changeSet !== undefined ? { changeSet: panel.changeSet } : {})}
        />
      )}
    </aside>
  )
}
