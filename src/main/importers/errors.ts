import { basename } from 'node:path'
import { UserError } from '../../shared/contract/errors'

/** Why an input file was refused; stable so the page can react (e.g. ask for a year). */
export type InputErrorCode =
  | 'unreadable'
  | 'empty-file'
  | 'binary-file'
  | 'invalid-utf8'
  | 'unterminated-quote'
  | 'stray-quote'
  | 'bad-after-quote'
  | 'bad-line-endings'
  | 'field-too-long'
  | 'wrong-header'
  | 'format-mismatch'
  | 'ragged-row'
  | 'bad-value'
  | 'year-required'
  | 'bad-json'
  | 'conflicting-cells'
  | 'conflicting-question'

export interface InputLocation {
  /** Full path of the file. */
  path: string
  /** 1-based; 0 when the problem is the file as a whole. */
  line: number
  /** 1-based, in characters on that line; 0 when unknown. */
  column: number
  /** The column name (header) the bad value sits in. */
  field?: string
}

/**
 * Bad input: a `UserError` of type `input` whose message starts with `file:line:column:` and says
 * what was expected, so it can be shown as is.
 */
export class InputError extends UserError {
  readonly code: InputErrorCode
  readonly file: string
  readonly path: string
  readonly line: number
  readonly column: number
  readonly field: string | undefined
  /** The message without the location prefix. */
  readonly reason: string

  constructor(code: InputErrorCode, reason: string, at: InputLocation) {
    const file = basename(at.path)
    let where = file
    if (at.line > 0) where += `:${at.line}` + (at.column > 0 ? `:${at.column}` : '')
    const field = at.field ? `${at.field}: ` : ''
    super({
      type: 'input',
      code,
      message: `${where}: ${field}${reason}`,
      file,
      ...(at.line > 0 ? { line: at.line } : {}),
      ...(at.line > 0 && at.column > 0 ? { column: at.column } : {}),
      ...(at.field ? { field: at.field } : {}),
    })
    this.name = 'InputError'
    this.code = code
    this.file = file
    this.path = at.path
    this.line = at.line
    this.column = at.column
    this.field = at.field
    this.reason = reason
  }
}

const ESCAPES: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' }

/** A value shown in a message: quoted, cut short, with control characters made visible. */
export function showValue(value: string, max = 40): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value
  let out = ''
  for (const ch of cut) {
    const code = ch.charCodeAt(0)
    out += code >= 32 ? ch : (ESCAPES[ch] ?? `\\x${code.toString(16).padStart(2, '0')}`)
  }
  return `'${out}'`
}

/** Why a path cannot be read as a file, in the user's words (from the system's error code). */
export function fileProblem(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file'
    case 'EISDIR':
      return 'it is a folder, not a file; name the files in it'
    case 'ELOOP':
      return 'it is a symbolic link that leads back to itself'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'ENOTDIR':
      return 'a part of the path is not a folder'
    default:
      return `cannot open the file (${code ?? 'unknown error'})`
  }
}
