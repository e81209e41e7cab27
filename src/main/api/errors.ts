import { ZodError } from 'zod'
import { type ApiErrorInfo, UserError, isApiErrorInfo } from '../../shared/contract/errors'

/**
 * Turns anything thrown in main into what may cross to the page: expected failures as they are,
 * argument errors naming the field, and anything else as an internal error without a stack.
 */
export function toErrorInfo(error: unknown): ApiErrorInfo {
  if (error instanceof UserError) return { ...error.info }
  if (error instanceof ZodError) {
    const issue = error.issues[0]
    const field = issue?.path.join('.') ?? ''
    return {
      type: 'invalid-argument',
      code: 'invalid-argument',
      message: field
        ? `${field}: ${issue?.message ?? 'invalid'}`
        : (issue?.message ?? 'invalid argument'),
      ...(field ? { field } : {}),
    }
  }
  if (
    typeof error === 'object' &&
    error !== null &&
    'info' in error &&
    isApiErrorInfo(error.info)
  ) {
    return { ...error.info }
  }
  if (isBusy(error)) {
    return {
      type: 'conflict',
      code: 'project-busy',
      message:
        'The project is busy: another job or program (an import, a pull, the command line) is ' +
        'writing to it. Nothing was changed; try again when it has finished.',
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { type: 'internal', code: 'internal', message }
}

/** SQLite gave up waiting for another connection's write lock (SQLITE_BUSY and its variants). */
function isBusy(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE_BUSY')
  )
}
