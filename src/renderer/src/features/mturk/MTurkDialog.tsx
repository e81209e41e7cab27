import { useState } from 'react'
import { Modal } from '../shell/Modal'
import { ConnectionSection } from './ConnectionSection'
import { HitsSection } from './HitsSection'
import { PullSection, type PullTarget } from './PullSection'
import { QualificationsSection } from './QualificationsSection'
import { closeMTurk } from './mturkState'
import './mturk.css'

/** Mechanical Turk: connection and key, pulling submissions, the HITs, qualification counts. */
export function MTurkDialog() {
  const [target, setTarget] = useState<PullTarget>({ scope: 'all', text: '' })
  return (
    <Modal
      title="Mechanical Turk"
      onClose={closeMTurk}
      testId="mturk-dialog"
      wide
      footer={
        <button className="primary" data-testid="mturk-close" onClick={closeMTurk}>
          Close
        </button>
      }
    >
      <div className="mturk-panel">
        <ConnectionSection />
        <PullSection target={target} onTarget={setTarget} />
        <HitsSection onPullType={(hitTypeId) => setTarget({ scope: 'type', text: hitTypeId })} />
        <QualificationsSection />
      </div>
    </Modal>
  )
}
