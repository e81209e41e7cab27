import { basename } from 'node:path'
import type { CrowdaqImportCounts } from '../../shared/crowdaq/contract'
import type { ImportResult } from '../../shared/contract/imports'
import type { JobProgress } from '../../shared/contract/jobs'
import { type HalieImportResult, describeHalieImport } from '../../shared/halie/tasks'
import type { ProtoqaImportResult } from '../../shared/protoqa/model'
import { describeAdded } from '../../shared/summaries'
import { describeCounts } from '../collections/crowdaq/import/import'
import type { ImportWork, ImportWorkResult } from '../importers/intoProject'
import { describeProtoqaImport } from '../collections/protoqa/import/run'
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
    unit: work.collection === 'crowdaq' ? 'items' : 'bytes',
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
  if (work.collection === 'crowdaq') return [work.name ?? basename(work.path)]
  if (work.collection === 'halie') return work.sources.map((s) => s.relPath)
  return work.files.map((f) => f.name ?? basename(f.path))
}

function describeImport(work: ImportWork, result: unknown, names: readonly string[]): string {
  if (work.collection === 'protoqa') {
    return `Added ${describeProtoqaImport(result as ProtoqaImportResult)}`
  }
  if (work.collection === 'crowdaq') {
    return `Imported ${names[0] ?? ''}: ${describeCounts(result as CrowdaqImportCounts)}.`
  }
  if (work.collection === 'halie')
    return `Added ${describeHalieImport(result as HalieImportResult)}`
  return describeAdded(result as ImportResult)
}

/**
 * Runs an import for a job, on the thread `thread` chooses: the job hears the same progress
 * (bytes read, then the steps, then the indexing), its cancel rolls the import back (or stops
 * the indexing), and bad input fails it with the same `UserError` on either thread.
 */
export async function runImport<W extends ImportWork>(
  dbPath: string,
  work: W,
  context: JobContext,
  thread: TaskThread = 'auto',
): Promise<ImportWorkResult<W>> {
  return (await runTask('import', { dbPath, work }, context, thread)) as ImportWorkResult<W>
}
