import type { ReactNode } from 'react'

/** The head of a side panel: title, optional id and extras, and a close button (Esc). */
export function PanelHead({
  title,
  subtitle,
  onClose,
  extra,
}: {
  title: string
  subtitle?: string
  onClose: () => void
  extra?: ReactNode
}) {
  return (
    <header className="side-head">
      <h2 className="side-title">
        {title}
        {subtitle && (
          <span className="side-subtitle mono" title={subtitle}>
            {subtitle}
          </span>
        )}
      </h2>
      {extra}
      <button
        className="icon-button"
        aria-label="Close panel (Esc)"
        title="Close (Esc)"
        onClick={onClose}
        data-testid="panel-close"
      >
        ×
      </button>
    </header>
  )
}
