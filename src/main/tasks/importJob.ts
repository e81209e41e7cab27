import { basename } from 'node:path'
import type { ImportResult } from '../../shared/contract/imports'
import type { JobProgress } from '../../shared/contract/jobs'
import { describeAdded } from '../../shared/summaries'
import { type CollectionImportWork, importerOf } from '../collections/importers'
import type { ImportWork, ImportWorkResult } from '../importers/intoProject'
import type { JobContext } from '../jobs/manager'
import type { Session } from '../session'
import { type TaskThread, runTask } from './threadTasks'

/**
 * Starts an import as a job, for every collection alike: on the task thread (`thread`), progress
 * in bytes read (CROWDAQ's in items), a cancel that leaves the project as it was, nothing written
 * unless every file is good. The page hears that the data changed, and which collections the
 * project now holds.
 */
export function startImportJob<W extends ImportWork>(
  session: Session,
  dbPath: string,
  work: W,
  thread: TaskThread = 'auto',
): JobProgress {
  const names = fileNames(work)
  return session.jobs.start<ImportWorkResult<W>>({
    kind: 'import',
    title: names.length === 1 ? `Importing ${names[0] ?? ''}` : `Importing ${names.length} files`,
    unit: isGlucose(work) ? 'bytes' : importerOf(work).unit,
    run: async (context) => {
      const result = await runImport(dbPath, work, context, thread)
      session.dataChanged({ collections: true })
      return result
    },
    summary: (result) => describeImport(work, result, names),
    cancel: {
      label: 'Cancel import',
      hint: 'Stop and leave the project as it was before the import',
    },
  })
}

/** The names the user knows the files by. */
function fileNames(work: ImportWork): string[] {
  if (isGlucose(work)) return work.files.map((f) => f.name ?? basename(f.path))
  return importerOf(work).names(work)
}

function describeImport(work: ImportWork, result: unknown, names: readonly string[]): string {
  if (isGlucose(work)) return describeAdded(result as ImportResult)
  return importerOf(work).describe(result as never, names)
}

function isGlucose(work: ImportWork): work is Exclude<ImportWork, CollectionImportWork> {
  return work.collection === undefined || work.collection === 'glucose'
}

/**
 * Runs an import for a job, on the thread `thread` chooses: the job hears the same progress
 * (bytes read, then the steps, then the indexing), its cancel rolls the import back (or stops
 * the indexing), and bad input fails it with the same `UserError` on either thread. `create`
 * makes the project when there is none (the command line's `import --db NEW`).
 */
export async function runImport<W extends ImportWork>(
  dbPath: string,
  work: W,
  context: JobContext,
  thread: TaskThread = 'auto',
  options: { create?: boolean } = {},
): Promise<ImportWorkResult<W>> {
  const input = { dbPath, work, ...(options.create ? { create: true } : {}) }
  return (await runTask('import', input, context, thread)) as ImportWorkResult<W>
}
