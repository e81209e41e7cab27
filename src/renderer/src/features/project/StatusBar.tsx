import type { ReactNode } from 'react'
import { plural } from '../../lib/format'
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
                plural(stats.submissions, 'submission'),
                plural(stats.annotations, 'annotation'),
                plural(stats.workers, 'worker'),
                plural(stats.stories, 'story', 'stories'),
              ].join(' · ')}
      </span>
      <span className="status-extra">{children}</span>
    </footer>
  )
}
