import { useStore } from '../../lib/store'
import { projectState } from '../project/project'
import { MTurkDialog } from './MTurkDialog'
import { mturkOpen, openMTurk } from './mturkState'

/** The toolbar entry, and the panel it opens (settings, HITs, pull, qualifications). */
export function MTurkButton() {
  const { project } = useStore(projectState)
  const open = useStore(mturkOpen)
  return (
    <>
      <button
        className="toolbar-button"
        data-testid="mturk-open"
        disabled={!project}
        title="Mechanical Turk: connection, HITs, pull submissions, qualifications"
        onClick={openMTurk}
      >
        Mechanical Turk
      </button>
      {open && project && <MTurkDialog key={project.path} />}
    </>
  )
}
