import { UserError } from '../../shared/contract/errors'
import type { releaseCalls } from '../../shared/contract/release'
import { startExportJob } from '../jobs/exportJob'
import { isReplaceableFolder } from '../release/export'
import { refuseFullFolder } from '../release/folder'
import { previewRelease } from '../release/preview'
import { releaseSettings, saveReleaseSettings } from '../release/settings'
import type { Handlers } from './handlers'

export const releaseHandlers: Handlers<keyof typeof releaseCalls> = {
  'release.settings': (_args, { session }) => {
    const project = session.project()
    return releaseSettings(project.db, project.path)
  },
  'release.saveSettings': ({ tierMap, card }, { session }) => {
    const project = session.project()
    return saveReleaseSettings(project.db, project.path, { tierMap, card })
  },
  'release.preview': (options, { session }) => previewRelease(session.project().db, options),
  'release.export': (options, { session }) => {
    const project = session.project()
    refuseFullFolder(options)
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
