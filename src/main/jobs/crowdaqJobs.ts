import type { QualifyResult } from '../../shared/contract/crowdaq'
import type { JobProgress } from '../../shared/contract/jobs'
import { applyBands, describeQualifying } from '../crowdaq/qualify'
import {
  type CrowdaqImportCounts,
  type CrowdaqImportOptions,
  describeCounts,
} from '../importers/crowdaq/import'
import { openConnection, withActions } from '../mturk/service'
import type { Session } from '../session'
import { type ImportThread, runImport } from './importJob'

/**
 * A CROWDAQ import as a job, on the import thread like any import: progress in items (read,
 * checked, written), a cancel that leaves the project as it was, nothing written unless all of
 * it is good.
 */
export function startCrowdaqImportJob(
  session: Session,
  dbPath: string,
  file: { path: string; name: string },
  options: CrowdaqImportOptions,
  thread: ImportThread = 'auto',
): JobProgress {
  return session.jobs.start<CrowdaqImportCounts>({
    kind: 'import',
    title: `Importing ${file.name}`,
    unit: 'items',
    run: async (context) => {
      const work = { collection: 'crowdaq' as const, path: file.path, options }
      const result = await runImport(dbPath, work, context, thread)
      session.dataChanged()
      return result
    },
    summary: (counts) => `Imported ${file.name}: ${describeCounts(counts)}.`,
    cancel: {
      label: 'Cancel import',
      hint: 'Stop and leave the project as it was before the import',
    },
  })
}

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
