import { errorParts } from '../../lib/errors'
import { useStore } from '../../lib/store'
import { dismiss, messages } from './messages'

/**
 * Toasts in the bottom-right corner of what the side panel leaves free (never over its controls):
 * errors stay until dismissed, notes fade.
 */
export function Messages() {
  const list = useStore(messages)
  if (list.length === 0) return null
  return (
    <div className="toasts" role="region" aria-label="Messages">
      {list.map((m) =>
        m.kind === 'error' && m.error ? (
          <div key={m.id} className="toast toast-error" role="alert" data-testid="error-message">
            <div className="toast-body">
              {m.context && <div className="toast-context">{m.context} failed</div>}
              <ErrorText {...errorParts(m.error)} />
            </div>
            <button className="icon-button" aria-label="Dismiss" onClick={() => dismiss(m.id)}>
              ×
            </button>
          </div>
        ) : (
          <div key={m.id} className="toast" role="status">
            <div className="toast-body">{m.text}</div>
            {m.action && (
              <button
                className="small toast-action"
                data-testid={m.action.testId}
                onClick={() => {
                  dismiss(m.id)
                  m.action?.run()
                }}
              >
                {m.action.label}
              </button>
            )}
          </div>
        ),
      )}
    </div>
  )
}

/** `file:line:column` in monospace, then the message. Both are plain text children. */
export function ErrorText({ location, message }: { location: string; message: string }) {
  return (
    <span className="error-text">
      {location && <code className="error-location">{location}</code>}
      {location && ' '}
      <span>{message}</span>
    </span>
  )
}
