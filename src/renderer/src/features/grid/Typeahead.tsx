import { type ReactNode, useEffect, useId, useState } from 'react'
import type { StoryMatch, WorkerMatch } from '../../../../shared/contract/review'
import { filterKey } from '../../../../shared/filter'
import { api } from '../../api'
import { formatCount } from '../../lib/format'
import { focusFirstRow } from './actions'
import { type WorkspaceModel, addToFilter, currentFilter, useWorkspace } from './workspaceModel'

interface TypeaheadProps<T> {
  placeholder: string
  label: string
  testId: string
  optionTestId: string
  className?: string
  /** What the field finds, for "No worker matches …". */
  noun: string
  /** Matches for what was typed, best first. */
  search: (query: string) => Promise<T[]>
  /** The id a match adds to the filter. */
  idOf: (match: T) => string
  render: (match: T) => ReactNode
  onPick: (id: string) => void
  /** Enter or ↓ with nothing typed, or Enter once a match is picked: on to the rows. */
  onDone: () => void
}

/**
 * Type an id, pick from matches (↑/↓, Enter). Each pick adds one id to the filter; Enter then goes
 * on to the rows it found. Text that matches nothing says so in the field and adds nothing.
 * Other forms that take an id (an audit's worker) use it too.
 */
export function Typeahead<T>(p: TypeaheadProps<T>) {
  const { search } = p
  const [text, setText] = useState('')
  const [found, setFound] = useState<{ query: string; matches: T[] } | null>(null)
  const [active, setActive] = useState(0)
  const [open, setOpen] = useState(false)
  const listId = useId()
  const problemId = useId()

  useEffect(() => {
    const query = text.trim()
    if (!query) return
    let live = true
    const timer = setTimeout(() => {
      search(query)
        .then((matches) => {
          if (!live) return
          setFound({ query, matches })
          setActive(0)
        })
        .catch(() => live && setFound({ query, matches: [] }))
    }, 60)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [text, search])

  const typed = text.trim()
  const shown = typed && found ? found.matches : []
  const nothing = typed !== '' && found?.query === typed && found.matches.length === 0

  function pick(id: string) {
    p.onPick(id)
    setText('')
    setFound(null)
    setOpen(false)
  }

  /** Enter: the exact or highlighted match of what is typed (asked for now if not yet known). */
  async function pickTyped() {
    const matches = found?.query === typed ? found.matches : await search(typed).catch(() => [])
    if (found?.query !== typed) setFound({ query: typed, matches })
    const chosen =
      matches.find((m) => p.idOf(m) === typed) ?? matches[found?.query === typed ? active : 0]
    if (!chosen) return
    pick(p.idOf(chosen))
    p.onDone()
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
        aria-invalid={nothing}
        aria-describedby={nothing ? problemId : undefined}
        data-testid={p.testId}
        onChange={(e) => {
          setText(e.target.value)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={(e) => {
          if ((e.key === 'Enter' || e.key === 'ArrowDown') && !typed) {
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
            void pickTyped()
          } else if (e.key === 'Escape') {
            setOpen(false)
          }
        }}
      />
      {nothing && (
        <div
          className="typeahead-empty"
          id={problemId}
          role="status"
          data-testid={`${p.testId}-none`}
        >
          No {p.noun} matches “{typed}”
        </div>
      )}
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

/** Once the rows of the filter just set are on screen, the keyboard goes on to the first. */
function focusFirstRowWhenShown(model: WorkspaceModel): void {
  const wanted = filterKey(currentFilter(model))
  // The rows on screen are the filter's (its total may still be counted).
  const ready = () => filterKey(model.shown.get()) === wanted
  if (ready()) {
    focusFirstRow(model)
    return
  }
  const check = () => {
    if (filterKey(currentFilter(model)) !== wanted) stop()
    else if (ready()) {
      stop()
      // After the grid has taken the rows' datasource, which follows right behind.
      setTimeout(() => focusFirstRow(model), 0)
    }
  }
  const stops = [model.shown.subscribe(check), model.total.subscribe(check)]
  const stop = () => stops.forEach((s) => s())
}

export const searchWorkers = (query: string) => api.review.workers({ query, limit: 12 })
const searchStories = (query: string) => api.review.stories({ query, limit: 12 })

/** A worker match: the id and how many annotations the worker has. */
export function workerOption(m: WorkerMatch): ReactNode {
  return (
    <>
      <span className="mono">{m.workerId}</span>
      <span className="note">{formatCount(m.annotations)}</span>
    </>
  )
}

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
      render={workerOption}
      noun="worker"
      onPick={(id) => addToFilter(model, 'workers', id)}
      onDone={() => focusFirstRowWhenShown(model)}
    />
  )
}

/** Story ids are long; their first characters are enough here. */
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
      noun="story"
      onPick={(id) => addToFilter(model, 'stories', id)}
      onDone={() => focusFirstRowWhenShown(model)}
    />
  )
}
