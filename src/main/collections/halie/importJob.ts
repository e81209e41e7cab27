import type { JobProgress } from '../../../shared/contract/jobs'
import { type HalieImportResult, describeHalieImport } from '../../../shared/halie/tasks'
import { type ImportThread, runImport } from '../../jobs/importJob'
import type { Session } from '../../session'
import type { HalieSource } from './read'

/**
 * A HALIE import as a job, on the same import thread as every import: progress in bytes, a
 * cancel that leaves the project as it was, nothing written unless every file is good.
 */
export function startHalieImportJob(
  session: Session,
  dbPath: string,
  sources: readonly HalieSource[],
  author: string,
  thread: ImportThread = 'auto',
): JobProgress {
  return session.jobs.start<HalieImportResult>({
    kind: 'import',
    title: `Importing HALIE (${sources.length} files)`,
    unit: 'bytes',
    run: async (context) => {
      const work = { collection: 'halie' as const, sources: [...sources], options: { author } }
      const result = await runImport(dbPath, work, context, thread)
      session.dataChanged()
      return result
    },
    summary: (r) => `Added ${describeHalieImport(r)}`,
    cancel: {
      label: 'Cancel import',
      hint: 'Stop and leave the project as it was before the import',
    },
  })
}
