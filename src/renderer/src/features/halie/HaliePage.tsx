import { useState } from 'react'
import { useStore } from '../../lib/store'
import { projectState } from '../project/project'
import { ImportFolderButton } from './ImportFolderButton'
import { SessionView } from './SessionView'
import { SessionsGrid } from './SessionsGrid'
import './halie.css'

/** HALIE: human–LM interaction sessions to filter, open, replay and release. */
export function HaliePage() {
  const dataVersion = useStore(projectState).dataVersion
  const [open, setOpen] = useState<number | null>(null)
  return (
    <div className="halie-page" data-testid="halie-page">
      <header className="halie-head">
        <h2>HALIE</h2>
        <ImportFolderButton onImported={() => setOpen(null)} />
      </header>
      {/* The grid stays mounted behind an open session, so its filters and scroll are kept. */}
      <div className="halie-main" hidden={open !== null}>
        <SessionsGrid dataVersion={dataVersion} onOpen={(row) => setOpen(row.id)} />
      </div>
      {open !== null && <SessionView id={open} onBack={() => setOpen(null)} />}
    </div>
  )
}
