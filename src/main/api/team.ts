import type { teamCalls } from '../../shared/contract/team'
import { UserError } from '../../shared/contract/errors'
import { runShareJob, startJoinJob, teamLogin, withdrawRefused } from '../tasks/teamJobs'
import { localAuthor } from '../ratings/author'
import type { Handlers } from './handlers'
import { fullPath, requireDialogs, withExtension } from './project'

export const teamHandlers: Handlers<keyof typeof teamCalls> = {
  'team.status': (_args, { session }) => session.teamStatus(),
  'team.share': async ({ server, name, password }, { session }) => {
    if (session.project().isDemo) {
      throw new UserError({
        type: 'conflict',
        code: 'demo-not-shared',
        message: 'The demo project is not shared; create or open a project of your own first.',
      })
    }
    const login = teamLogin(session, { server, name, password })
    const published = await runShareJob(session, login, name)
    return {
      status: session.teamStatus(),
      changeSets: published.changeSets,
      submissions: published.submissions,
    }
  },
  'team.join': ({ server, name, path, password }, { session }) => {
    const file = withExtension(fullPath(path))
    return startJoinJob(session, file, teamLogin(session, { server, name, password }), name)
  },
  'team.withdraw': async ({ changeSetId }, { session }) => {
    await withdrawRefused(session, changeSetId, localAuthor())
    return session.teamStatus()
  },
  'team.upgrade': async (_args, { session }) => await session.upgradeTeamServer(),
  'team.pickJoinPath': async (_args, context) => await requireDialogs(context).createProject(),
}
