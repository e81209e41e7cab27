import { UserError } from '../../shared/contract/errors'
import type { releaseCalls } from '../../shared/contract/release'
import { startExportJob } from '../jobs/exportJob'
import { isReplaceableFolder } from '../release/export'
import { releaseSettings, saveReleaseSettings } from '../release/settings'
import { localAuthor } from '../ratings/author'
import type { Handlers } from './handlers'
import { recorded } from './recorded'

export const releaseHandlers: Handlers<keyof typeof releaseCalls> = {
  'release.settings': (_args, { session }) => {
    const project = session.project()
    return releaseSettings(project.db, project.path)
  },
  'release.saveSettings': ({ tierMap, card }, { session }) => {
    const project = session.project()
    return recorded(
      session,
      saveReleaseSettings(project.db, project.path, { tierMap, card }, localAuthor()),
    )
  },
  'release.export': (options, { session }) => {
    const project = session.project()
    if (options.force && !isReplaceableFolder(options.out)) {
      throw new UserError({
        type: 'invalid-argument',
        code: 'not-a-release-folder',
        message: `${options.out} is not empty and holds no earlier release; choose another folder.`,
        field: 'out',
        file: options.out,
      })
    }
    const job = startExportJob(session, project.path, options)
    return { jobId: job.id }
  },
}
