import { useEffect, useId, useState } from 'react'
import type { WorkerMatch } from '../../../../shared/contract/review'
import { api } from '../../api'
import { formatCount } from '../../lib/format'
import { addToFilter, useWorkspace } from './workspaceModel'

/** Type a worker id, pick from matches (↑/↓, Enter); each pick adds one worker to the filter. */
export function WorkerTypeahead() {
  const model = useWorkspace()
  const [text, setText] = useState('')
  const [matches, setMatches] = useState<WorkerMatch[]>([])
  const [active, setActive] = useState(0)
  const [open, setOpen] = useState(false)
  const listId = useId()

  useEffect(() => {
    const query = text.trim()
    if (!query) return
    let live = true
    const timer = setTimeout(() => {
      api.review
        .workers({ query, limit: 12 })
        .then((found) => {
          if (!live) return
          setMatches(found)
          setActive(0)
        })
        .catch(() => live && setMatches([]))
    }, 60)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [text])

  const shown = text.trim() ? matches : []

  function pick(workerId: string) {
    addToFilter(model, 'workers', workerId)
    setText('')
    setMatches([])
    setOpen(false)
  }

  return (
    <div className="typeahead">
      <input
        type="search"
        placeholder="Worker…"
        value={text}
        spellCheck={false}
        autoComplete="off"
        role="combobox"
        aria-label="Add a worker to the filter"
        aria-expanded={open && shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={open && shown[active] ? `${listId}-${active}` : undefined}
        data-testid="filter-worker"
        onChange={(e) => {
          setText(e.target.value)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault()
            setActive((a) => Math.min(a + 1, shown.length - 1))
          } else if (e.key === 'ArrowUp') {
            e.preventDefault()
            setActive((a) => Math.max(a - 1, 0))
          } else if (e.key === 'Enter') {
            e.preventDefault()
            const typed = text.trim()
            const exact = shown.find((m) => m.workerId === typed)
            const chosen = exact ?? shown[active]
            if (chosen) pick(chosen.workerId)
            else if (typed) pick(typed)
          } else if (e.key === 'Escape') {
            setOpen(false)
          }
        }}
      />
      {open && shown.length > 0 && (
        <ul className="typeahead-list" role="listbox" id={listId}>
          {shown.map((m, i) => (
            <li
              key={m.workerId}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              data-testid="worker-option"
              onMouseDown={(e) => {
                e.preventDefault()
                pick(m.workerId)
              }}
            >
              <span className="mono">{m.workerId}</span>
              <span className="note">{formatCount(m.annotations)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
