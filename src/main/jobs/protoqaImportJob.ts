import type { JobProgress } from '../../shared/contract/jobs'
import type { ProtoqaImportResult } from '../../shared/protoqa/model'
import { describeProtoqaImport, type ProtoqaImportFile } from '../importers/protoqa/run'
import type { Session } from '../session'
import { type ImportThread, runImport } from './importJob'

/**
 * A ProtoQA import as a job, on the same import thread as GLUCOSE files: progress in bytes, a
 * cancel that leaves the project as it was, nothing written unless every file is good.
 */
export function startProtoqaImportJob(
  session: Session,
  dbPath: string,
  files: readonly ProtoqaImportFile[],
  author: string,
  thread: ImportThread = 'auto',
): JobProgress {
  const title =
    files.length === 1 ? `Importing ${files[0]?.name ?? ''}` : `Importing ${files.length} files`
  return session.jobs.start<ProtoqaImportResult>({
    kind: 'import',
    title,
    unit: 'bytes',
    run: async (context) => {
      const work = { collection: 'protoqa' as const, files: [...files], options: { author } }
      const result = await runImport(dbPath, work, context, thread)
      session.dataChanged()
      return result
    },
    summary: (r) => `Added ${describeProtoqaImport(r)}`,
    cancel: {
      label: 'Cancel import',
      hint: 'Stop and leave the project as it was before the import',
    },
  })
}
