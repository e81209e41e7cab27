import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useClickOutside } from '../../lib/useClickOutside'

interface PickOption<V> {
  value: V
  label: ReactNode
  /** Accessible name of the checkbox. */
  name: string
}

interface MultiPickProps<V> {
  label: string
  options: readonly PickOption<V>[]
  selected: readonly V[]
  onToggle: (value: V, on: boolean) => void
  testId?: string
  /** Short text for the button when something is picked. */
  summary?: string
  /** Whether the button shows as filtering; default: something is picked. */
  active?: boolean
  /** `end`: the list opens leftwards from the button's right edge (for buttons at the window's right). */
  align?: 'start' | 'end'
}

/** A drop-down of checkboxes for a list field (dimensions, ratings); stays open while toggling. */
export function MultiPick<V extends string | number>({
  label,
  options,
  selected,
  onToggle,
  testId,
  summary,
  active,
  align = 'start',
}: MultiPickProps<V>) {
  const isActive = active ?? selected.length > 0
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)

  useClickOutside(root, open, setOpen)
  useEffect(() => {
    if (open) root.current?.querySelector<HTMLElement>('input')?.focus()
  }, [open])

  return (
    <div
      className="menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation()
          setOpen(false)
          root.current?.querySelector<HTMLElement>('button')?.focus()
        }
      }}
    >
      <button
        className={`filter-button ${isActive ? 'is-active' : ''}`}
        aria-haspopup="true"
        aria-expanded={open}
        data-testid={testId}
        onClick={() => setOpen(!open)}
      >
        {label}
        {isActive && <span className="filter-count">{summary ?? selected.length}</span>}
        <span className="caret">▾</span>
      </button>
      {open && (
        <div
          className={`menu-list pick-list ${align === 'end' ? 'align-right' : ''}`}
          role="group"
          aria-label={label}
        >
          {options.map((o) => (
            <label
              key={String(o.value)}
              className="pick-option"
              data-testid={testId ? `${testId}-option` : undefined}
            >
              <input
                type="checkbox"
                aria-label={o.name}
                checked={selected.includes(o.value)}
                onChange={(e) => onToggle(o.value, e.target.checked)}
              />
              {o.label}
            </label>
          ))}
        </div>
      )}
    </div>
  )
}
