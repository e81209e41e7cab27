import type { releaseCalls } from '../../shared/contract/release'
import { startExportJob } from '../tasks/exportJob'
import { checkOutputFolder } from '../release/folder'
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
    // Refused at once with what is in the way; the export checks again as it puts the release in place.
    checkOutputFolder(options.out, options.force, project.path)
    const job = startExportJob(session, project.path, options)
    return { jobId: job.id }
  },
}
