import { useEffect, useRef, useState } from 'react'
import type { SavedView } from '../../../../shared/contract/review'
import { describeFilter } from '../../../../shared/filter'
import { api } from '../../api'
import { formatMoment } from '../../lib/format'
import { useClickOutside } from '../../lib/useClickOutside'
import { showError, showInfo } from '../messages/messages'
import { Modal } from '../shell/Modal'
import { applyLayout, columnsOf } from './columnState'
import { currentFilter, setFilter, useWorkspace } from './workspaceModel'

/** Named views (filter, sort, columns) saved in the project; reopen one with a click. */
export function ViewsMenu() {
  const model = useWorkspace()
  const [open, setOpen] = useState(false)
  const [views, setViews] = useState<SavedView[] | null>(null)
  const [saving, setSaving] = useState(false)
  const root = useRef<HTMLDivElement>(null)

  useClickOutside(root, open, setOpen)
  useEffect(() => {
    if (!open) return
    let live = true
    api.review
      .listViews({})
      .then((list) => live && setViews(list))
      .catch((e: unknown) => showError('Listing views', e))
    return () => {
      live = false
    }
  }, [open])

  function apply(view: SavedView) {
    setOpen(false)
    setFilter(model, view.filter)
    model.sort.set(view.sort)
    const grid = model.grid.get()
    if (grid) applyLayout(grid, view.columns, view.sort)
    showInfo(`View “${view.name}”.`)
  }

  function remove(view: SavedView) {
    api.review
      .deleteView({ name: view.name })
      .then(() => setViews((list) => list?.filter((v) => v.name !== view.name) ?? null))
      .catch((e: unknown) => showError('Deleting the view', e))
  }

  return (
    <div
      className="menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation()
          setOpen(false)
        }
      }}
    >
      <div className="button-pair">
        <button
          className="filter-button"
          aria-expanded={open}
          aria-haspopup="menu"
          data-testid="view-list"
          onClick={() => setOpen(!open)}
        >
          Views <span className="caret">▾</span>
        </button>
        <button
          className="filter-button"
          data-testid="view-save"
          title="Save the filter, sort and columns as a named view"
          onClick={() => setSaving(true)}
        >
          Save view…
        </button>
      </div>
      {open && (
        <div className="menu-list align-right views-list" role="menu">
          {views === null && <div className="menu-heading">Loading…</div>}
          {views?.length === 0 && <div className="menu-heading">No saved views yet</div>}
          {views?.map((v) => (
            <div key={v.name} className="view-item">
              <button
                role="menuitem"
                className="menu-item"
                data-testid="view-item"
                title={describeFilter(v.filter)}
                onClick={() => apply(v)}
              >
                <span className="menu-label">{v.name}</span>
                <span className="menu-shortcut">{formatMoment(v.savedAt)}</span>
              </button>
              <button
                className="icon-button"
                aria-label={`Delete view ${v.name}`}
                onClick={() => remove(v)}
              >
                ×
              </button>
            </div>
          ))}
        </div>
      )}
      {saving && <SaveViewDialog onClose={() => setSaving(false)} />}
    </div>
  )
}

function SaveViewDialog({ onClose }: { onClose: () => void }) {
  const model = useWorkspace()
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)

  async function save() {
    const trimmed = name.trim()
    if (!trimmed) return
    setBusy(true)
    try {
      const grid = model.grid.get()
      await api.review.saveView({
        name: trimmed,
        filter: currentFilter(model),
        sort: model.sort.get(),
        ...(grid ? { columns: columnsOf(grid) } : {}),
      })
      showInfo(`Saved view “${trimmed}”.`)
      onClose()
    } catch (e) {
      showError('Saving the view', e)
      setBusy(false)
    }
  }

  return (
    <Modal
      title="Save view"
      onClose={onClose}
      testId="view-save-dialog"
      footer={
        <>
          <button onClick={onClose}>Cancel</button>
          <button
            className="primary"
            disabled={!name.trim() || busy}
            data-testid="view-save-confirm"
            onClick={() => void save()}
          >
            Save
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <label className="field">
          <span>Name (a view with the same name is replaced)</span>
          <input
            type="text"
            autoFocus
            maxLength={100}
            value={name}
            data-testid="view-name"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <p className="note">{describeFilter(currentFilter(model))}</p>
      </form>
    </Modal>
  )
}
