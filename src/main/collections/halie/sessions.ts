import { UserError } from '../../../shared/contract/errors'
import { parseLogLine, type LogEvent } from '../../../shared/halie/logEvents'
import { type DocumentState, Replay } from '../../../shared/halie/replay'
import type { ModelFigures } from '../../../shared/halie/sessions'
import type { HalieTask } from '../../../shared/halie/tasks'
import type { Db } from '../../db/connection'
import { logLines, modelFigures, sessionsById } from './db/sessions'

/** The session an id names; a task is needed only when two tasks share the id. */
export function sessionOf(db: Db, externalId: string, task?: HalieTask): number {
  const found = sessionsById(db, externalId).filter((s) => !task || s.task === task)
  if (found.length === 0)
    throw new UserError({
      type: 'not-found',
      code: 'no-such-session',
      message: `No HALIE session ${externalId}${task ? ` in ${task}` : ''}`,
    })
  if (found.length > 1)
    throw new UserError({
      type: 'invalid-argument',
      code: 'ambiguous-session',
      message: `Session ${externalId} is in ${found.map((s) => s.task).join(' and ')}; name one with --task`,
      field: 'task',
    })
  return (found[0] as { id: number }).id
}

/** A session's raw log as events, in log order (imported logs were checked line by line). */
export function sessionEvents(db: Db, sessionId: number): LogEvent[] {
  return logLines(db, sessionId).map((line, seq) => parseLogLine(line, seq))
}

/** The document `ms` after the session's first logged event; null without a raw log. */
export function documentAt(db: Db, sessionId: number, ms: number): DocumentState | null {
  const events = sessionEvents(db, sessionId)
  if (events.length === 0) return null
  return new Replay(events).at(ms)
}

export function figuresByModel(db: Db, task?: HalieTask): ModelFigures[] {
  return modelFigures(db, task)
}
