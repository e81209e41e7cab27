import type { ReactNode } from 'react'
import { formatCount } from '../../lib/format'
import { useStore } from '../../lib/store'
import { projectState } from './project'

/** The bottom line: what is in the project, plus whatever the workspace adds (as-of, selection). */
export function StatusBar({ children }: { children?: ReactNode }) {
  const { project, stats } = useStore(projectState)
  return (
    <footer className="statusbar">
      <span
        className="status-counts"
        data-testid="status-counts"
        data-submissions={stats?.submissions}
        data-annotations={stats?.annotations}
        data-workers={stats?.workers}
        data-stories={stats?.stories}
      >
        {!project
          ? 'No project open'
          : !stats
            ? 'Counting…'
            : [
                `${formatCount(stats.submissions)} submissions`,
                `${formatCount(stats.annotations)} annotations`,
                `${formatCount(stats.workers)} workers`,
                `${formatCount(stats.stories)} stories`,
              ].join(' · ')}
      </span>
      <span className="status-extra">{children}</span>
    </footer>
  )
}
