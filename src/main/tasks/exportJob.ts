import type { JobProgress } from '../../shared/contract/jobs'
import type { ParsedReleaseOptions, ReleaseResult } from '../../shared/contract/release'
import type { JobContext } from '../jobs/manager'
import type { Session } from '../session'
import { runTask } from './threadTasks'

/**
 * Exports a release from the project file at `dbPath`: on the task thread with its own connection
 * in the built app and command line (the window stays responsive), in this thread where there is
 * no built thread (tests run the sources).
 */
export function runExport(
  dbPath: string,
  options: ParsedReleaseOptions,
  context: JobContext,
): Promise<ReleaseResult> {
  return runTask('export', { dbPath, options }, context)
}

/** Starts an export as a job of the session: progress in annotations, cancel leaves nothing. */
export function startExportJob(
  session: Session,
  dbPath: string,
  options: ParsedReleaseOptions,
): JobProgress {
  return session.jobs.start<ReleaseResult>({
    kind: 'export',
    title: 'Exporting a release',
    unit: 'annotations',
    run: (context) => runExport(dbPath, options, context),
    summary: (result) =>
      `Wrote ${result.files.length} file${result.files.length === 1 ? '' : 's'} to ${result.out}`,
    cancel: { label: 'Cancel export', hint: 'Stop; no release folder is written' },
  })
}
