import { ZodError } from 'zod'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import { errorInfo } from '../jobs/errorInfo'

/**
 * Turns anything thrown in main into what may cross to the page: argument errors naming the
 * field, everything else as `errorInfo` describes it.
 */
export function toErrorInfo(error: unknown): ApiErrorInfo {
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
  return errorInfo(error)
}
