/**
 * Failures that cross from main to the page. Expected ones (bad input, a missing project, a
 * cancelled job) carry what the user needs to fix them; anything else is `internal`.
 */
type ApiErrorType =
  'input' | 'invalid-argument' | 'not-found' | 'conflict' | 'cancelled' | 'internal'

export interface ApiErrorInfo {
  type: ApiErrorType
  /** Stable machine-readable code, e.g. `year-required`, `ragged-row`, `no-project`. */
  code: string
  message: string
  file?: string
  line?: number
  column?: number
  field?: string
}

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: ApiErrorInfo }

/** An expected failure raised in main; the API wrapper sends it to the page as it is. */
export class UserError extends Error {
  readonly info: ApiErrorInfo

  constructor(info: Omit<ApiErrorInfo, 'message'> & { message: string }) {
    super(info.message)
    this.name = 'UserError'
    this.info = info
  }
}

/** The page-side error thrown when a call fails. */
export class ApiError extends Error {
  readonly info: ApiErrorInfo

  constructor(info: ApiErrorInfo) {
    super(info.message)
    this.name = 'ApiError'
    this.info = info
  }
}

export function isApiErrorInfo(value: unknown): value is ApiErrorInfo {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return typeof v.type === 'string' && typeof v.code === 'string' && typeof v.message === 'string'
}

/** `file:line:column: message` — the one way a location is written in messages. */
export function formatLocation(info: Pick<ApiErrorInfo, 'file' | 'line' | 'column'>): string {
  if (!info.file) return ''
  let at = info.file
  if (info.line !== undefined) at += `:${info.line}`
  if (info.line !== undefined && info.column !== undefined) at += `:${info.column}`
  return at
}
