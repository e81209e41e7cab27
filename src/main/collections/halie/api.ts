import type { halieCalls } from '../../../shared/halie/contract'
import { UserError } from '../../../shared/contract/errors'
import { logLines, sessionChoices, sessionDetail, sessionPage } from './db/sessions'
import type { Handlers } from '../../api/handlers'
import { localAuthor } from '../../ratings/author'
import { startImportJob } from '../../tasks/importJob'
import { figuresByModel } from './sessions'
import { rateBlocks, rateSessions, withRatings } from './ratings'
import { exportHalieRelease } from './release'
import { checkOutputFolder } from '../../release/folder'

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
  'halie.sessions': ({ filter, sort, descending, offset, limit }, { session }) => {
    const db = session.project().db
    const page = sessionPage(db, filter, {
      ...(sort ? { sort } : {}),
      descending: descending ?? false,
      offset,
      limit,
    })
    return { total: page.total, rows: withRatings(db, page.rows) }
  },
  'halie.session': ({ id }, { session }) => {
    const db = session.project().db
    const detail = sessionDetail(db, id)
    if (!detail) throw noSession(id)
    return {
      ...detail,
      row: withRatings(db, [detail.row])[0] ?? { ...detail.row, rating: null, ratingSource: null },
    }
  },
  'halie.rateSessions': ({ ids, rating, note }, { session }) =>
    rateSessions(session.project().db, ids, { value: rating, author: localAuthor(), note }),
  'halie.rateBlocks': ({ ids, rating, note }, { session }) =>
    rateBlocks(session.project().db, ids, { value: rating, author: localAuthor(), note }),
  'halie.release': ({ task, ...options }, { session }) => {
    const project = session.project()
    // Refused at once with what is in the way, in the page's words.
    checkOutputFolder(options.out, options.force, project.path, 'tick “Replace an earlier release”')
    return exportHalieRelease(project.db, project.path, task, options)
  },
  'halie.log': ({ id }, { session }) => logLines(session.project().db, id),
  'halie.figures': ({ task }, { session }) => figuresByModel(session.project().db, task),
}
