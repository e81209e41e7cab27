import { useEffect, useState } from 'react'
import type { HalieTask } from '../../../../shared/halie/tasks'
import { api } from '../../api'
import { showError } from '../messages/messages'
import { ReleasePanel } from './ReleasePanel'
import { useStore } from '../../lib/store'
import { projectState } from '../project/project'
import { usePageTab } from '../shell/navigation'
import { ChartsPanel } from './ChartsPanel'
import { ImportFolderButton } from './ImportFolderButton'
import { SessionView } from './SessionView'
import { SessionsGrid } from './SessionsGrid'
import './halie.css'

const VIEWS = ['sessions', 'charts', 'release'] as const
type View = (typeof VIEWS)[number]

/** HALIE: human–LM interaction sessions to filter, open, replay and chart. */
export function HaliePage() {
  const dataVersion = useStore(projectState).dataVersion
  const [open, setOpen] = useState<number | null>(null)
  // The Release page links to the Release tab.
  const [view, setView] = usePageTab<View>('halie', VIEWS, 'sessions')
  const [tasks, setTasks] = useState<HalieTask[]>([])
  useEffect(() => {
    api.halie
      .choices({})
      .then((c) => setTasks(c.tasks))
      .catch((e: unknown) => showError('Reading HALIE sessions', e))
  }, [dataVersion])
  return (
    <div className="halie-page" data-testid="halie-page">
      <header className="halie-head">
        <h2>HALIE</h2>
        <nav className="halie-tabs">
          {VIEWS.map((v) => (
            <button
              key={v}
              className={`small ${view === v ? 'is-active' : ''}`}
              data-testid={`halie-view-${v}`}
              onClick={() => setView(v)}
            >
              {v === 'sessions' ? 'Sessions' : v === 'charts' ? 'Charts' : 'Release'}
            </button>
          ))}
        </nav>
        <ImportFolderButton onImported={() => setOpen(null)} />
      </header>
      {/* The grid stays mounted behind an open session, so its filters and scroll are kept. */}
      <div className="halie-main" hidden={view !== 'sessions' || open !== null}>
        <SessionsGrid dataVersion={dataVersion} onOpen={(row) => setOpen(row.id)} />
      </div>
      {view === 'sessions' && open !== null && (
        <SessionView id={open} onBack={() => setOpen(null)} />
      )}
      {view === 'charts' && <ChartsPanel dataVersion={dataVersion} />}
      {view === 'release' && tasks.length > 0 && <ReleasePanel key={tasks.join()} tasks={tasks} />}
    </div>
  )
}
