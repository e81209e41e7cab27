/**
 * HALIE's cell shapes (FORMATS.md §7.1): Python-`repr` list cells, `True`/`False`, numbers
 * written as strings, empty for missing. Pure, so the page and the importer read cells alike.
 */

/** A cell that does not have the shape its column needs; `offset` is 0-based in the cell. */
export class CellError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message)
    this.name = 'CellError'
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
}

const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 }

/**
 * Reads a Python `repr` of a list of strings: `[]`, `['exact', 'keyword']`, `["Duck's"]`, each
 * element quoted with either quote and backslash escapes inside.
 */
export function parseReprList(cell: string): string[] {
  let i = 0
  const skipSpaces = (): void => {
    while (i < cell.length && (cell[i] === ' ' || cell[i] === '\n')) i++
  }
  skipSpaces()
  if (cell[i] !== '[') throw new CellError("expected a list such as ['a', 'b']", i)
  i++
  const items: string[] = []
  skipSpaces()
  if (cell[i] === ']') {
    i++
  } else {
    for (;;) {
      skipSpaces()
      items.push(readQuoted())
      skipSpaces()
      if (cell[i] === ',') {
        i++
        continue
      }
      if (cell[i] === ']') {
        i++
        break
      }
      throw new CellError(i >= cell.length ? 'the list is not closed' : "expected ',' or ']'", i)
    }
  }
  skipSpaces()
  if (i < cell.length) throw new CellError('unexpected text after the list', i)
  return items

  function readQuoted(): string {
    const quote = cell[i]
    if (quote !== "'" && quote !== '"') throw new CellError('expected a quoted string', i)
    const start = i
    i++
    let out = ''
    for (;;) {
      if (i >= cell.length) throw new CellError('the string is not closed', start)
      const ch = cell[i] as string
      if (ch === quote) {
        i++
        return out
      }
      if (ch !== '\\') {
        out += ch
        i++
        continue
      }
      const next = cell[i + 1]
      if (next === undefined) throw new CellError('the string is not closed', start)
      const simple = SIMPLE_ESCAPES[next]
      if (simple !== undefined) {
        out += simple
        i += 2
        continue
      }
      const length = HEX_LENGTH[next]
      if (length !== undefined) {
        const hex = cell.slice(i + 2, i + 2 + length)
        if (hex.length !== length || !/^[0-9a-fA-F]+$/.test(hex))
          throw new CellError(`bad \\${next} escape`, i)
        out += String.fromCodePoint(parseInt(hex, 16))
        i += 2 + length
        continue
      }
      // Python keeps an unknown escape as written.
      out += ch + next
      i += 2
    }
  }
}

/** Writes a list as Python's `repr` does: single quotes unless an element holds one and no double. */
export function reprList(items: readonly string[]): string {
  return `[${items.map(reprString).join(', ')}]`
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  let out = quote
  for (const ch of s) {
    if (ch === '\\') out += '\\\\'
    else if (ch === quote) out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\r') out += '\\r'
    else if (ch < ' ' || ch === '\x7f')
      out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`
    else out += ch
  }
  return out + quote
}

/** `True`/`False`; null when empty. */
export function parseBoolean(cell: string): boolean | null {
  if (cell === '') return null
  if (cell === 'True') return true
  if (cell === 'False') return false
  throw new CellError('expected True or False', 0)
}

/** A number written as a string (`1.0`, `0.666…`, `-1`); null when empty. */
export function parseNumber(cell: string): number | null {
  const s = cell.trim()
  if (s === '') return null
  const value = Number(s)
  if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s))
    throw new CellError('expected a number', 0)
  return value
}

/** `-1` means "not asked" or "not applicable" (crossword `joy`, dialogue turn rows). */
export function withoutSentinel(value: number | null): number | null {
  return value === -1 ? null : value
}

/** `elapsed_time` is minutes; the replay and the page speak milliseconds. */
export function minutesToMs(minutes: number): number {
  return Math.round(minutes * 60_000)
}
