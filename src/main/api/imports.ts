import type { importCalls } from '../../shared/contract/imports'
import { inspectFile } from '../importers/inspect'
import { startImportJob } from '../tasks/importJob'
import type { Handlers } from './handlers'

export const importHandlers: Handlers<keyof typeof importCalls> = {
  'import.pickFiles': async (_args, context) => {
    const paths = (await context.dialogs?.openDataFiles()) ?? []
    return paths.map((path) => context.session.grantFile(path))
  },
  'import.detect': ({ files }, { session }) =>
    files.map((ref) => {
      const file = session.resolveFile(ref)
      return { ref, ...inspectFile(file.path, file.name) }
    }),
  'import.start': ({ files, year }, { session }) => {
    const project = session.project()
    const resolved = files.map(({ ref, format }) => ({
      ...session.resolveFile(ref),
      ...(format ? { format } : {}),
    }))
    const job = startImportJob(session, project.path, {
      files: resolved,
      options: year ? { year } : {},
    })
    return { jobId: job.id }
  },
}
