/** One line of a HALIE raw log (FORMATS.md §7.2), as the replay and the page use it. */

export type DeltaOp =
  { retain: number } | { delete: number } | { insert: unknown; attributes?: unknown }

export interface Suggestion {
  index: number | null
  original: string
  trimmed: string
  probability: number | null
  source: string
}

export interface LogEvent {
  /** 0-based position in the log. */
  seq: number
  name: string
  source: 'user' | 'api'
  /** `eventTimestamp`, ms since the epoch (browser clock). */
  timestamp: number
  /** The Quill delta's ops, or the plain string payload; null for `""`. */
  delta: DeltaOp[] | string | null
  /** `currentDoc` where given (only at `system-initialize`). */
  doc: string | null
  suggestions: Suggestion[]
  /** `currentSuggestionIndex` (or `currentHoverIndex` when that is the one set). */
  suggestionIndex: number | null
  cursor: { index: number; length: number } | null
}

/** Why a log line was refused; `column` is 1-based in the line. */
export class LogLineError extends Error {
  constructor(
    message: string,
    readonly column: number,
    readonly field?: string,
  ) {
    super(message)
    this.name = 'LogLineError'
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function columnOf(line: string, key: string): number {
  const at = line.indexOf(`"${key}"`)
  return at < 0 ? 1 : at + 1
}

function optionalIndex(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v)
  return null
}

function readOps(line: string, value: unknown): DeltaOp[] {
  const fail = (why: string): never => {
    throw new LogLineError(`textDelta: ${why}`, columnOf(line, 'textDelta'), 'textDelta')
  }
  if (!isObject(value) || !Array.isArray(value.ops)) return fail('expected {"ops": [...]}')
  return value.ops.map((op: unknown) => {
    if (!isObject(op)) return fail('each op is an object')
    if ('insert' in op) return op as DeltaOp
    const count = 'retain' in op ? op.retain : 'delete' in op ? op.delete : undefined
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
      return fail('expected retain, insert or delete with a count')
    return 'retain' in op ? { retain: count } : { delete: count }
  })
}

function readSuggestions(line: string, value: unknown): Suggestion[] {
  if (value === undefined || value === '' || value === null) return []
  if (!Array.isArray(value))
    throw new LogLineError(
      'currentSuggestions: expected a list',
      columnOf(line, 'currentSuggestions'),
      'currentSuggestions',
    )
  return value.filter(isObject).map((s) => ({
    index: optionalIndex(s.index),
    original: typeof s.original === 'string' ? s.original : '',
    trimmed: typeof s.trimmed === 'string' ? s.trimmed : '',
    probability: typeof s.probability === 'number' ? s.probability : null,
    source: typeof s.source === 'string' ? s.source : '',
  }))
}

/** Reads one log line; throws `LogLineError` naming the column and key of what is wrong. */
export function parseLogLine(line: string, seq: number): LogEvent {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (e) {
    const at = /position (\d+)/.exec(String(e))
    throw new LogLineError('not valid JSON', at ? Number(at[1]) + 1 : 1)
  }
  if (!isObject(value)) throw new LogLineError('expected a JSON object', 1)
  const { eventName, eventSource, eventTimestamp, textDelta, currentDoc, cursorRange } = value
  if (typeof eventName !== 'string' || eventName === '')
    throw new LogLineError('eventName: expected a name', columnOf(line, 'eventName'), 'eventName')
  if (eventSource !== 'user' && eventSource !== 'api')
    throw new LogLineError(
      'eventSource: expected user or api',
      columnOf(line, 'eventSource'),
      'eventSource',
    )
  if (typeof eventTimestamp !== 'number' || !Number.isFinite(eventTimestamp))
    throw new LogLineError(
      'eventTimestamp: expected milliseconds since the epoch',
      columnOf(line, 'eventTimestamp'),
      'eventTimestamp',
    )
  let delta: LogEvent['delta'] = null
  if (typeof textDelta === 'string') delta = textDelta === '' ? null : textDelta
  else if (textDelta !== undefined && textDelta !== null) delta = readOps(line, textDelta)
  const cursor =
    isObject(cursorRange) &&
    typeof cursorRange.index === 'number' &&
    typeof cursorRange.length === 'number'
      ? { index: cursorRange.index, length: cursorRange.length }
      : null
  const suggestionIndex =
    optionalIndex(value.currentSuggestionIndex) ?? optionalIndex(value.currentHoverIndex)
  return {
    seq,
    name: eventName,
    source: eventSource,
    timestamp: eventTimestamp,
    delta,
    doc: typeof currentDoc === 'string' && currentDoc !== '' ? currentDoc : null,
    suggestions: readSuggestions(line, value.currentSuggestions),
    suggestionIndex,
    cursor,
  }
}
