import { type ReactNode, useEffect, useId, useState } from 'react'
import type { StoryMatch, WorkerMatch } from '../../../../shared/contract/review'
import { api } from '../../api'
import { formatCount } from '../../lib/format'
import { focusFirstRow } from './actions'
import { addToFilter, useWorkspace } from './workspaceModel'

interface TypeaheadProps<T> {
  placeholder: string
  label: string
  testId: string
  optionTestId: string
  className?: string
  /** Matches for what was typed, best first. */
  search: (query: string) => Promise<T[]>
  /** The id a match adds to the filter. */
  idOf: (match: T) => string
  render: (match: T) => ReactNode
  onPick: (id: string) => void
  /** Enter or ↓ with nothing typed: on to the rows. */
  onDone: () => void
}

/**
 * Type an id, pick from matches (↑/↓, Enter; Enter alone takes what was typed when nothing
 * matches). Each pick adds one id to the filter.
 */
function Typeahead<T>(p: TypeaheadProps<T>) {
  const { search } = p
  const [text, setText] = useState('')
  const [matches, setMatches] = useState<T[]>([])
  const [active, setActive] = useState(0)
  const [open, setOpen] = useState(false)
  const listId = useId()

  useEffect(() => {
    const query = text.trim()
    if (!query) return
    let live = true
    const timer = setTimeout(() => {
      search(query)
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
  }, [text, search])

  const shown = text.trim() ? matches : []

  function pick(id: string) {
    p.onPick(id)
    setText('')
    setMatches([])
    setOpen(false)
  }

  return (
    <div className={`typeahead ${p.className ?? ''}`}>
      <input
        type="search"
        placeholder={p.placeholder}
        value={text}
        spellCheck={false}
        autoComplete="off"
        role="combobox"
        aria-label={p.label}
        aria-expanded={open && shown.length > 0}
        aria-controls={listId}
        aria-activedescendant={open && shown[active] ? `${listId}-${active}` : undefined}
        data-testid={p.testId}
        onChange={(e) => {
          setText(e.target.value)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if ((e.key === 'Enter' || e.key === 'ArrowDown') && !text.trim()) {
            e.preventDefault()
            p.onDone()
          } else if (e.key === 'ArrowDown') {
            e.preventDefault()
            setActive((a) => Math.min(a + 1, shown.length - 1))
          } else if (e.key === 'ArrowUp') {
            e.preventDefault()
            setActive((a) => Math.max(a - 1, 0))
          } else if (e.key === 'Enter') {
            e.preventDefault()
            const typed = text.trim()
            const exact = shown.find((m) => p.idOf(m) === typed)
            const chosen = exact ?? shown[active]
            if (chosen) pick(p.idOf(chosen))
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
              key={p.idOf(m)}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              data-testid={p.optionTestId}
              onMouseDown={(e) => {
                e.preventDefault()
                pick(p.idOf(m))
              }}
            >
              {p.render(m)}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

const searchWorkers = (query: string) => api.review.workers({ query, limit: 12 })
const searchStories = (query: string) => api.review.stories({ query, limit: 12 })

export function WorkerTypeahead() {
  const model = useWorkspace()
  return (
    <Typeahead<WorkerMatch>
      placeholder="Worker…"
      label="Add a worker to the filter"
      testId="filter-worker"
      optionTestId="worker-option"
      search={searchWorkers}
      idOf={(m) => m.workerId}
      render={(m) => (
        <>
          <span className="mono">{m.workerId}</span>
          <span className="note">{formatCount(m.annotations)}</span>
        </>
      )}
      onPick={(id) => addToFilter(model, 'workers', id)}
      onDone={() => focusFirstRow(model)}
    />
  )
}

/** Story ids are long; the grid shows their first characters, and those are enough here. */
export function StoryTypeahead() {
  const model = useWorkspace()
  return (
    <Typeahead<StoryMatch>
      placeholder="Story id…"
      label="Add a story to the filter"
      testId="filter-story"
      optionTestId="story-option"
      className="story-typeahead"
      search={searchStories}
      idOf={(m) => m.storyId}
      render={(m) => (
        <span className="story-option">
          <span className="story-option-head">
            <span className="mono">{m.storyId}</span>
            <span className="note">{formatCount(m.annotations)}</span>
          </span>
          <span className="note story-opening">{m.opening}</span>
        </span>
      )}
      onPick={(id) => addToFilter(model, 'stories', id)}
      onDone={() => focusFirstRow(model)}
    />
  )
}
