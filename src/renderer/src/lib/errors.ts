import {
  ApiError,
  type ApiErrorInfo,
  formatLocation,
  isApiErrorInfo,
} from '../../../shared/contract'

/** Any failure the page meets, as the one shape it shows: the contract's error info. */
export function toErrorInfo(error: unknown): ApiErrorInfo {
  if (error instanceof ApiError) return error.info
  if (isApiErrorInfo(error)) return error
  if (error instanceof Error) return { type: 'internal', code: 'page', message: error.message }
  return { type: 'internal', code: 'page', message: String(error) }
}

/**
 * `file:line:column` and the message, each once: messages from main often begin with their own
 * location already, which the page shows apart (monospace) and so takes off the message.
 */
export function errorParts(info: ApiErrorInfo): { location: string; message: string } {
  const location = formatLocation(info)
  if (!location) return { location, message: info.message }
  const prefix = `${location}: `
  return {
    location,
    message: info.message.startsWith(prefix) ? info.message.slice(prefix.length) : info.message,
  }
}

/** One line for logs and clipboard: `file:line:column: message`. */
export function errorLine(info: ApiErrorInfo): string {
  const { location, message } = errorParts(info)
  return location ? `${location}: ${message}` : message
}
