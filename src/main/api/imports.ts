import type { importCalls } from '../../shared/contract/imports'
import { inspectFile } from '../importers/inspect'
import { startImportJob } from '../jobs/importJob'
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
  'import.start': ({ files, format, year }, { session }) => {
    const project = session.project()
    const resolved = files.map((ref) => session.resolveFile(ref))
    const job = startImportJob(session, project.path, resolved, {
      ...(format ? { format } : {}),
      ...(year ? { year } : {}),
    })
    return { jobId: job.id }
  },
}
