import { type ReactNode, useEffect, useRef } from 'react'
import { useLatest } from '../../lib/useLatest'

interface ModalProps {
  title: string
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
  testId?: string
  wide?: boolean
  className?: string
}

/**
 * A modal panel. Not the native <dialog>: its top layer would hide the toasts and job tray, which
 * must stay visible while an import runs. Esc closes; focus moves in on open and back on close.
 */
export function Modal({ title, onClose, children, footer, testId, wide, className }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null)
  const closeRef = useLatest(onClose)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const first = panel.current?.querySelector<HTMLElement>(
      '[autofocus], input:not([type=hidden]):not([disabled]), select, button:not(.modal-close)',
    )
    ;(first ?? panel.current)?.focus()
    return () => previous?.focus()
  }, [])

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) closeRef.current()
      }}
    >
      <div
        ref={panel}
        className={`modal ${wide ? 'modal-wide' : ''} ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            closeRef.current()
          }
        }}
      >
        <header className="modal-head">
          <h2>{title}</h2>
          <button
            className="icon-button modal-close"
            aria-label="Close"
            onClick={() => closeRef.current()}
          >
            ×
          </button>
        </header>
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-foot">{footer}</footer>}
      </div>
    </div>
  )
}
