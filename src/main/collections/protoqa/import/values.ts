import { InputError, showValue } from '../../../importers/errors'
import { jsonErrorOffset, lineColumn } from './jsonLine'

/** One JSON line (or a whole JSON file) being read, so that every complaint names where. */
export class JsonSource {
  constructor(
    readonly path: string,
    /** The text parsed: a line of a JSONL file, or the whole file. */
    readonly text: string,
    /** Line of the text's first character. */
    readonly firstLine: number,
  ) {}

  parse(): unknown {
    try {
      return JSON.parse(this.text) as unknown
    } catch (error) {
      const offset = jsonErrorOffset(this.text)
      const reason = (error as Error).message.replace(/, ".*" is not valid JSON$/s, '')
      throw new InputError('bad-json', `not valid JSON: ${reason}`, {
        path: this.path,
        ...this.at(offset < 0 ? 0 : offset),
      })
    }
  }

  /** The location of an offset into the text. */
  at(offset: number): { line: number; column: number } {
    const { line, column } = lineColumn(this.text, offset)
    return { line: this.firstLine + line - 1, column }
  }

  /**
   * Where a field sits: each key of its path searched for in turn (its JSON spelling), so the
   * column is that of the last key found; the text's start when none is.
   */
  locate(path: readonly string[]): { line: number; column: number } {
    let from = 0
    let found = 0
    for (const key of path) {
      const i = this.text.indexOf(JSON.stringify(key), from)
      if (i === -1) break
      found = i
      from = i + 1
    }
    return this.at(found)
  }

  fail(path: readonly string[], reason: string): never {
    throw new InputError('bad-value', reason, {
      path: this.path,
      ...this.locate(path),
      field: path.join('.'),
    })
  }

  object(value: unknown, path: readonly string[]): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(path, `expected an object, found ${describe(value)}`)
    return value as Record<string, unknown>
  }

  string(value: unknown, path: readonly string[], { empty = false } = {}): string {
    if (typeof value !== 'string') this.fail(path, `expected a string, found ${describe(value)}`)
    if (!empty && value.trim() === '') this.fail(path, 'expected text, found an empty string')
    return value
  }

  count(value: unknown, path: readonly string[]): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      this.fail(path, `expected a count (a whole number, 0 or more), found ${describe(value)}`)
    return value
  }

  strings(value: unknown, path: readonly string[]): string[] {
    if (!Array.isArray(value))
      this.fail(path, `expected a list of strings, found ${describe(value)}`)
    return value.map((v: unknown) => this.string(v, path, { empty: true }))
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'string') return showValue(value)
  if (typeof value === 'object') return 'an object'
  return JSON.stringify(value)
}
