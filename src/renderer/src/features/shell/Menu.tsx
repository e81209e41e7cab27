import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useClickOutside } from '../../lib/useClickOutside'

export interface MenuItem {
  label: string
  /** Shown right-aligned, e.g. "Ctrl+O". */
  shortcut?: string
  onSelect?: () => void
  disabled?: boolean
  /** A non-clickable heading or note inside the menu. */
  heading?: boolean
  separator?: boolean
  testId?: string
  title?: string
}

interface MenuProps {
  label: ReactNode
  items: MenuItem[] | (() => MenuItem[])
  onOpen?: () => void
  testId?: string
  buttonClass?: string
  ariaLabel?: string
}

/** A drop-down menu button: arrows move, Enter/Space choose, Esc or a click outside closes. */
export function Menu({ label, items, onOpen, testId, buttonClass, ariaLabel }: MenuProps) {
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const list = typeof items === 'function' ? items() : items

  useClickOutside(root, open, setOpen)
  useEffect(() => {
    if (open) root.current?.querySelector<HTMLElement>('[role=menuitem]:not([disabled])')?.focus()
  }, [open])

  function move(delta: number) {
    const entries = [
      ...(root.current?.querySelectorAll<HTMLElement>('[role=menuitem]:not([disabled])') ?? []),
    ]
    if (entries.length === 0) return
    const at = entries.indexOf(document.activeElement as HTMLElement)
    entries[(at + delta + entries.length) % entries.length]?.focus()
  }

  return (
    <div className="menu" ref={root}>
      <button
        ref={button}
        className={buttonClass ?? 'toolbar-button'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={ariaLabel}
        data-testid={testId}
        onClick={() => {
          if (!open) onOpen?.()
          setOpen(!open)
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault()
            onOpen?.()
            setOpen(true)
          }
        }}
      >
        {label}
      </button>
      {open && (
        <div
          className="menu-list"
          role="menu"
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault()
              move(1)
            } else if (e.key === 'ArrowUp') {
              e.preventDefault()
              move(-1)
            } else if (e.key === 'Escape') {
              e.stopPropagation()
              setOpen(false)
              button.current?.focus()
            }
          }}
        >
          <MenuItems items={list} onChoose={() => setOpen(false)} />
        </div>
      )}
    </div>
  )
}

/** A menu's entries: separators, headings and items; choosing an item calls `onChoose` first. */
export function MenuItems({ items, onChoose }: { items: MenuItem[]; onChoose: () => void }) {
  return items.map((item, i) =>
    item.separator ? (
      <div key={i} className="menu-separator" role="separator" />
    ) : item.heading ? (
      <div key={i} className="menu-heading">
        {item.label}
      </div>
    ) : (
      <button
        key={i}
        role="menuitem"
        className="menu-item"
        disabled={item.disabled}
        title={item.title}
        data-testid={item.testId}
        onClick={() => {
          onChoose()
          item.onSelect?.()
        }}
      >
        <span className="menu-label">{item.label}</span>
        {item.shortcut && <span className="menu-shortcut">{item.shortcut}</span>}
      </button>
    ),
  )
}
