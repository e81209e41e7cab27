import type { QualifyResult } from '../../../shared/crowdaq/contract'
import type { JobProgress } from '../../../shared/contract/jobs'
import { applyBands, describeQualifying } from './qualify'
import { openConnection, withActions } from '../../mturk/service'
import type { Session } from '../../session'

/**
 * Applying an exam's bands on MTurk as a job: progress in workers, and a cancel that stops
 * between groups of requests; what was sent is recorded, so applying again sends the rest.
 */
export function startQualifyJob(session: Session, examId: string): JobProgress {
  // Credentials and endpoint now, so a missing key answers the click rather than failing the job.
  openConnection(session).close()
  return session.jobs.start<QualifyResult>({
    kind: 'qualify',
    title: `Qualifying the workers of exam ${examId}`,
    unit: 'workers',
    run: async (job) => {
      try {
        return await withActions(
          session,
          (ac) =>
            applyBands(ac, examId, {
              progress: (done, total) => job.report({ done, total }),
              cancelled: () => job.signal.aborted,
            }),
          job.signal,
        )
      } finally {
        session.dataChanged()
      }
    },
    summary: describeQualifying,
    cancel: {
      label: 'Stop sending',
      hint: 'What was sent stays recorded; applying the bands again sends the rest',
    },
  })
}
