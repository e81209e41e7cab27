import { existsSync } from 'node:fs'
import { isAbsolute, sep } from 'node:path'
import { version } from '../../../package.json'
import { UserError } from '../../shared/contract/errors'
import type { projectCalls } from '../../shared/contract/project'
import { projectStats } from '../db/queries/stats'
import { ensureDemoProject } from '../demo'
import type { CallContext, Handlers } from './handlers'

export function requireDialogs(context: CallContext): NonNullable<CallContext['dialogs']> {
  if (!context.dialogs) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'no-dialogs',
      message: 'Native dialogs exist only in the desktop app.',
    })
  }
  return context.dialogs
}

export function withExtension(path: string): string {
  return path.endsWith('.winnow') ? path : `${path}.winnow`
}

/**
 * A path typed in the page (serve mode has no file dialogs) must be whole: a relative one would
 * be read from wherever the server happened to start.
 */
export function fullPath(path: string): string {
  if (!isAbsolute(path)) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'relative-path',
      message: `${path}: give the full path (from ${sep}), as the machine running Winnow sees it.`,
      field: 'path',
    })
  }
  return path
}

export const projectHandlers: Handlers<keyof typeof projectCalls> = {
  'app.info': (_args, { session }) => ({
    version,
    mode: session.mode === 'electron' ? 'electron' : 'serve',
  }),
  'project.current': (_args, { session }) => session.info(),
  'project.open': ({ path }, { session }) => session.open(fullPath(path)),
  'project.create': ({ path }, { session }) => {
    const file = withExtension(fullPath(path))
    if (existsSync(file)) {
      throw new UserError({
        type: 'conflict',
        code: 'exists',
        message: `${file}: this file exists already; open it instead.`,
        file,
      })
    }
    return session.open(file, { create: true })
  },
  'project.openDemo': (_args, { session }) => {
    const path = session.options.demoPath
    if (!path) {
      throw new UserError({ type: 'not-found', code: 'no-demo', message: 'No demo project here.' })
    }
    ensureDemoProject(path)
    return session.open(path, { isDemo: true })
  },
  'project.recent': (_args, { session }) => session.options.recents?.list() ?? [],
  'project.pickOpen': async (_args, context) => {
    const path = await requireDialogs(context).openProject()
    return path === null ? null : context.session.open(path)
  },
  'project.pickCreate': async (_args, context) => {
    const path = await requireDialogs(context).createProject()
    return path === null ? null : context.session.open(withExtension(path), { create: true })
  },
  'project.stats': (_args, { session }) => projectStats(session.project().db),
  'project.collections': (_args, { session }) => [...session.project().collections],
}
