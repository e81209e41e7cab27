import { type ApiErrorInfo, UserError, isApiErrorInfo } from '../../shared/contract/errors'

/**
 * A failure as it may cross to the page, or from a worker thread to the main one: expected
 * failures as they are, a lock another program held too long as "the project is busy", anything
 * else as an internal error without a stack. Free of zod, so worker threads start without it
 * (argument errors are the API wrapper's, `toErrorInfo`).
 */
export function errorInfo(error: unknown): ApiErrorInfo {
  if (error instanceof UserError) return { ...error.info }
  if (typeof error === 'object' && error !== null) {
    if ('info' in error && isApiErrorInfo(error.info)) return { ...error.info }
    if ('code' in error && typeof error.code === 'string' && error.code.startsWith('SQLITE_BUSY')) {
      return {
        type: 'conflict',
        code: 'project-busy',
        message:
          'The project is busy: another job or program (an import, a pull, the command line) is ' +
          'writing to it. Nothing was changed; try again when it has finished.',
      }
    }
    if (
      'code' in error &&
      typeof error.code === 'string' &&
      error.code.startsWith('SQLITE_READONLY')
    ) {
      return {
        type: 'conflict',
        code: 'project-read-only',
        message:
          'The project file is read-only: Winnow cannot write to it or to its folder (SQLite: ' +
          `${error instanceof Error ? error.message : error.code}). Nothing was changed; copy the ` +
          'project somewhere writable or change its permissions.',
      }
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { type: 'internal', code: 'internal', message }
}
