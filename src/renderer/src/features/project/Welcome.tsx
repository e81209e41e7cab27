import { useEffect, useState } from 'react'
import type { RecentProject } from '../../../../shared/contract/project'
import { formatMoment } from '../../lib/format'
import { hasNativeDialogs, projectActions } from './project'

/** What the window shows with no project open. */
export function Welcome({ onAskPath }: { onAskPath: (mode: 'open' | 'create') => void }) {
  const [recent, setRecent] = useState<RecentProject[]>([])

  useEffect(() => {
    projectActions
      .recent()
      .then(setRecent)
      .catch(() => setRecent([]))
  }, [])

  return (
    <div className="welcome" data-testid="welcome">
      <h1>Winnow</h1>
      <p className="note">Turn raw crowd work into a released dataset.</p>
      <div className="welcome-actions">
        <button
          className="primary"
          data-testid="welcome-demo"
          onClick={() => void projectActions.openDemo()}
        >
          Open the demo project
        </button>
        <button
          data-testid="welcome-open"
          onClick={() => (hasNativeDialogs ? void projectActions.pickOpen() : onAskPath('open'))}
        >
          Open a project…
        </button>
        <button
          data-testid="welcome-new"
          onClick={() =>
            hasNativeDialogs ? void projectActions.pickCreate() : onAskPath('create')
          }
        >
          New project…
        </button>
      </div>
      {recent.length > 0 && (
        <section className="welcome-recent">
          <h2>Recent projects</h2>
          <ul>
            {recent.map((r) => (
              <li key={r.path}>
                <button
                  className="link"
                  disabled={!r.exists}
                  title={r.path}
                  onClick={() => void projectActions.open(r.path)}
                >
                  {r.name}
                </button>
                <span className="note">
                  {r.exists ? formatMoment(r.openedAt) : 'missing'} · {r.path}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}
