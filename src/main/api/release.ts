import type { releaseCalls } from '../../shared/contract/release'
import { startExportJob } from '../tasks/exportJob'
import { checkOutputFolder } from '../release/folder'
import { previewRelease } from '../release/preview'
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
  'release.preview': (options, { session }) => previewRelease(session.project().db, options),
  'release.export': (options, { session }) => {
    const project = session.project()
    // Refused at once with what is in the way, in the page's words; the export checks again as it
    // puts the release in place.
    checkOutputFolder(
      options.out,
      options.force,
      project.path,
      'tick “Replace a folder that is not empty”',
    )
    const job = startExportJob(session, project.path, options)
    return { jobId: job.id }
  },
}
