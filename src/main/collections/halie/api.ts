import type { halieCalls } from '../../../shared/halie/contract'
import { UserError } from '../../../shared/contract/errors'
import { logLines, sessionChoices, sessionDetail, sessionPage } from './db/sessions'
import type { Handlers } from '../../api/handlers'
import { localAuthor } from '../../ratings/author'
import { startImportJob } from '../../tasks/importJob'
import { figuresByModel } from './sessions'

const noSession = (id: number): UserError =>
  new UserError({ type: 'not-found', code: 'no-such-session', message: `No HALIE session #${id}` })

export const halieHandlers: Handlers<keyof typeof halieCalls> = {
  'halie.import': ({ files }, { session }) => {
    const project = session.project()
    const sources = files.map(({ ref, relPath }) => ({
      path: session.resolveFile(ref).path,
      relPath,
    }))
    const work = { collection: 'halie' as const, sources, options: { author: localAuthor() } }
    return { jobId: startImportJob(session, project.path, work).id }
  },
  'halie.choices': (_args, { session }) => sessionChoices(session.project().db),
  'halie.sessions': ({ filter, sort, descending, offset, limit }, { session }) =>
    sessionPage(session.project().db, filter, {
      ...(sort ? { sort } : {}),
      descending: descending ?? false,
      offset,
      limit,
    }),
  'halie.session': ({ id }, { session }) => {
    const detail = sessionDetail(session.project().db, id)
    if (!detail) throw noSession(id)
    return detail
  },
  'halie.log': ({ id }, { session }) => logLines(session.project().db, id),
  'halie.figures': ({ task }, { session }) => figuresByModel(session.project().db, task),
}
