import type { releaseCalls } from '../../shared/contract/release'
import { startExportJob } from '../jobs/exportJob'
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
  'release.export': (options, { session }) => {
    const project = session.project()
    const job = startExportJob(session, project.path, options)
    return { jobId: job.id }
  },
}
