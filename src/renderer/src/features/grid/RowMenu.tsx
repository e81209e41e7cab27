import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { ReviewRow } from '../../../../shared/contract/review'
import { api } from '../../api'
import { formatCount, plural } from '../../lib/format'
import { useClickOutside } from '../../lib/useClickOutside'
import { showError, showInfo } from '../messages/messages'
import { describeResult, inTurn, ratingsChanged } from '../ratings/ratingState'
import { ratingScale } from '../ratings/scale'
import { keyedLevels, ratingText } from '../ratings/scaleMath'
import { undoAction } from '../ratings/undoChange'
import { type MenuItem, MenuItems } from '../shell/Menu'
import { canChangeRatings, copySelection, rateTarget } from './actions'
import { writeClipboard } from './clipboard'
import type { WorkspaceModel } from './workspaceModel'

/** Where the row menu opened and for which row. */
export interface RowMenuAt {
  x: number
  y: number
  row: ReviewRow
}

/** Rates explicit annotations in one change set (the selected rows), with Undo on its note. */
function rateRows(ids: number[], rating: number | null): Promise<void> {
  if (!canChangeRatings()) return Promise.resolve()
  return inTurn(async () => {
    try {
      const result = await api.ratings.rateItems({ annotationIds: ids, rating })
      const what = `${plural(ids.length, 'annotation')} ${rating === null ? 'cleared' : `rated ${ratingText(rating, ratingScale.get())}`}`
      showInfo(`${what}: ${describeResult(result)}.`, undoAction(result.changeSet, what))
      ratingsChanged()
    } catch (e) {
      showError('Rating', e)
    }
  })
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await writeClipboard(text)
    showInfo(`Copied ${what}.`)
  } catch (e) {
    showError('Copying', e)
  }
}

/** The row menu's entries: what the selection (or the row right-clicked) can do. */
function rowMenuItems(model: WorkspaceModel, row: ReviewRow): MenuItem[] {
  const selection = model.selection.get()
  const selected = selection.mode === 'rows' ? [...selection.rows.keys()] : []
  const many = selected.length > 1
  const scale = ratingScale.get()
  const rate = (rating: number | null) =>
    many ? rateRows(selected, rating) : rateTarget({ kind: 'annotation', id: row.id }, rating)
  const items: MenuItem[] = [
    {
      label: many ? `Rate the ${formatCount(selected.length)} selected` : 'Rate this annotation',
      heading: true,
    },
  ]
  if (selection.mode === 'query') {
    items.push({
      label: 'A whole query: use Rate… in the selection bar',
      disabled: true,
    })
  } else {
    for (const { key, level } of keyedLevels(scale)) {
      items.push({
        label: `Rate ${ratingText(level.value, scale)}`,
        shortcut: many ? undefined : key,
        testId: 'row-menu-rate',
        onSelect: () => void rate(level.value),
      })
    }
    items.push({
      label: many ? 'Clear their item ratings' : 'Clear the item rating',
      shortcut: many ? undefined : 'x',
      title: 'Fall back to the worker timeline',
      onSelect: () => void rate(null),
    })
  }
  items.push({ label: '', separator: true })
  items.push({
    label: 'Open the story',
    shortcut: 'Enter',
    testId: 'row-menu-story',
    onSelect: () => model.panel.set({ kind: 'story' }),
  })
  const workerId = row.workerId
  if (workerId !== null) {
    items.push({
      label: `Show worker ${workerId}`,
      shortcut: 'w',
      testId: 'row-menu-worker',
      onSelect: () => model.panel.set({ kind: 'worker', workerId }),
    })
  }
  items.push({ label: '', separator: true })
  items.push({
    label: many ? `Copy the ${formatCount(selected.length)} rows` : 'Copy the row',
    shortcut: 'Ctrl+C',
    testId: 'row-menu-copy',
    onSelect: () => void copySelection(model),
  })
  if (workerId !== null) {
    items.push({
      label: 'Copy the worker id',
      testId: 'row-menu-copy-worker',
      onSelect: () => void copyText(workerId, `worker id ${workerId}`),
    })
  }
  items.push({
    label: 'Copy the story id',
    onSelect: () => void copyText(row.storyId, `story id ${row.storyId}`),
  })
  return items
}

/** The grid's right-click menu, at the pointer and inside the window; Esc or a click outside closes. */
export function RowMenu({
  model,
  at,
  onClose,
}: {
  model: WorkspaceModel
  at: RowMenuAt
  onClose: () => void
}) {
  const root = useRef<HTMLDivElement>(null)
  const [items] = useState(() => rowMenuItems(model, at.row))
  const [place, setPlace] = useState({ left: at.x, top: at.y })
  useClickOutside(root, true, (open) => open || onClose())
  useLayoutEffect(() => {
    const box = root.current?.getBoundingClientRect()
    if (!box) return
    setPlace({
      left: Math.max(4, Math.min(at.x, window.innerWidth - box.width - 4)),
      top: Math.max(4, Math.min(at.y, window.innerHeight - box.height - 4)),
    })
  }, [at])
  useEffect(() => {
    root.current?.querySelector<HTMLElement>('[role=menuitem]:not([disabled])')?.focus()
  }, [])

  function move(delta: number) {
    const entries = [
      ...(root.current?.querySelectorAll<HTMLElement>('[role=menuitem]:not([disabled])') ?? []),
    ]
    if (entries.length === 0) return
    const index = entries.indexOf(document.activeElement as HTMLElement)
    entries[(index + delta + entries.length) % entries.length]?.focus()
  }

  return (
    <div
      ref={root}
      className="menu-list row-menu"
      role="menu"
      aria-label="Row actions"
      data-testid="row-menu"
      style={{ left: place.left, top: place.top }}
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault()
          move(e.key === 'ArrowDown' ? 1 : -1)
        } else if (e.key === 'Escape') {
          e.preventDefault()
          e.stopPropagation()
          onClose()
        }
      }}
    >
      <MenuItems items={items} onChoose={onClose} />
    </div>
  )
}
