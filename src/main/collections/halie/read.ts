import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { UserError } from '../../../shared/contract/errors'
import { CellError, parseBoolean, parseNumber, parseReprList } from '../../../shared/halie/cells'
import { type LogEvent, LogLineError, parseLogLine } from '../../../shared/halie/logEvents'
import {
  BOOLEAN_COLUMNS,
  type HalieTable,
  type HalieTask,
  KEY_COLUMNS,
  LIST_COLUMNS,
  METADATA_DOMAINS,
  NUMBER_COLUMNS,
  isHalieTask,
} from '../../../shared/halie/tasks'
import { type CsvRecord, locateField, openCsv } from '../../importers/csv'
import { ZipRefusal, readZip, zipBudget } from '../../importers/zip'
import { append } from '../../../shared/lists'
import { firstInvalidUtf8 } from '../../importers/csv'

/**
 * Reading and checking a HALIE data folder before anything is written: what each file is, its
 * rows with every cell checked, its logs parsed. A problem names the file as the folder has it
 * (`question/event_blocks.csv`, since every task has one), the line, the column and the field.
 */

/** A file of the folder: where it is, and its path inside the folder (`/`-separated). */
export interface HalieSource {
  path: string
  relPath: string
}

export function halieError(
  reason: string,
  at: { file: string; line?: number; column?: number; field?: string },
  code = 'bad-value',
): UserError {
  let where = at.file
  if (at.line) where += `:${at.line}` + (at.column ? `:${at.column}` : '')
  return new UserError({
    type: 'input',
    code,
    message: `${where}: ${at.field ? `${at.field}: ` : ''}${reason}`,
    file: at.file,
    ...(at.line ? { line: at.line } : {}),
    ...(at.line && at.column ? { column: at.column } : {}),
    ...(at.field ? { field: at.field } : {}),
  })
}

/** Every file under a folder, for `winnow halie import DIR`. */
export function halieSourcesIn(dir: string): HalieSource[] {
  let entries: string[]
  try {
    if (!statSync(dir).isDirectory())
      throw halieError('expected a folder of HALIE task folders', { file: dir }, 'not-a-folder')
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  } catch (e) {
    if (e instanceof UserError) throw e
    throw halieError('no such folder', { file: dir }, 'no-such-file')
  }
  return entries
    .map((entry) => join(dir, entry))
    .filter((path) => statSync(path).isFile())
    .sort()
    .map((path) => ({ path, relPath: relative(dir, path).split(sep).join('/') }))
}

export interface TableFile {
  kind: 'table'
  task: HalieTask
  table: HalieTable
  display: string
  path: string
}
export interface LogFile {
  kind: 'log'
  task: HalieTask
  sessionId: string
  display: string
  /** The file, or the zip entry's bytes. */
  path: string
  bytes?: Uint8Array
}
export interface MetadataFile {
  kind: 'metadata'
  task: HalieTask | null
  display: string
  path: string
}
export type Classified = TableFile | LogFile | MetadataFile

const TABLE_FILES: Record<string, HalieTable> = {
  'event_blocks.csv': 'event_blocks',
  'survey_responses.csv': 'survey_responses',
  'accuracies.csv': 'accuracies',
}

function stem(name: string): string {
  return name.replace(/\.jsonl$/i, '')
}

/** A `.jsonl` beside the tables: a raw log (`eventName` on its first line) or session metadata. */
function sniffJsonLines(path: string): 'log' | 'metadata' {
  const text = readFileSync(path, 'utf8')
  const first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'))
  return /"eventName"\s*:/.test(first) ? 'log' : 'metadata'
}

/**
 * What each file of the folder is, by where it sits: `<task>/event_blocks.csv` and its siblings,
 * `<task>/logs/<session_id>.jsonl`, `<task>/logs.zip`, other JSON lines (a raw log named by
 * its session, or session metadata). Files of no task are left out.
 */
export function classify(sources: readonly HalieSource[]): Classified[] {
  const out: Classified[] = []
  for (const { path, relPath } of sources) {
    const parts = relPath.split('/')
    const name = parts[parts.length - 1] ?? ''
    const taskAt = parts.findLastIndex((p) => isHalieTask(p))
    const task = taskAt >= 0 ? (parts[taskAt] as HalieTask) : null
    const display = taskAt >= 0 ? parts.slice(taskAt).join('/') : relPath
    const table = TABLE_FILES[name]
    if (task && table && taskAt === parts.length - 2) {
      out.push({ kind: 'table', task, table, display, path })
    } else if (task && name === 'logs.zip') {
      append(out, zipLogs(task, display, path))
    } else if (name.toLowerCase().endsWith('.jsonl')) {
      const inLogs = parts[parts.length - 2] === 'logs'
      if (task && (inLogs || sniffJsonLines(path) === 'log'))
        out.push({ kind: 'log', task, sessionId: stem(name), display, path })
      else out.push({ kind: 'metadata', task, display, path })
    }
  }
  return out
}

function zipLogs(task: HalieTask, display: string, path: string): LogFile[] {
  let entries: { name: string; bytes: Uint8Array }[]
  try {
    // The same bounded reader as every zip Winnow reads: sizes checked before inflating.
    entries = readZip(readFileSync(path), zipBudget())
  } catch (e) {
    if (!(e instanceof ZipRefusal)) throw e
    const where = e.entry ? `${display}!${e.entry}` : display
    throw halieError(e.message, { file: where }, 'unreadable')
  }
  return entries
    .filter(({ name }) => name.toLowerCase().endsWith('.jsonl'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, bytes }) => ({
      kind: 'log' as const,
      task,
      sessionId: stem(name.split('/').pop() ?? name),
      display: `${display}!${name}`,
      path,
      bytes,
    }))
}

export interface TableRow {
  line: number
  cells: string[]
}

export interface ReadTable {
  file: TableFile
  header: string[]
  rows: TableRow[]
  bytes: number
  sha256: string
}

/** Reads a table, checking its header and every cell by its column's shape. */
export function readTable(file: TableFile): ReadTable {
  const csv = (() => {
    try {
      return openCsv(file.path, { sha256: true })
    } catch (e) {
      throw relocated(e, file.display)
    }
  })()
  try {
    const first = next(csv, file.display)
    if (!first) throw halieError('the file is empty', { file: file.display }, 'empty-file')
    const header = first.fields
    for (const key of KEY_COLUMNS)
      if (!header.includes(key))
        throw halieError(
          `the header has no ${key} column`,
          { file: file.display, line: 1 },
          'wrong-header',
        )
    // Each column's check, decided once per file rather than per cell.
    const checks = header.map((column) =>
      LIST_COLUMNS.has(column)
        ? parseReprList
        : BOOLEAN_COLUMNS.has(column)
          ? parseBoolean
          : NUMBER_COLUMNS.has(column)
            ? parseNumber
            : null,
    )
    const sessionColumn = header.indexOf('session_id')
    const rows: TableRow[] = []
    for (let record = next(csv, file.display); record; record = next(csv, file.display)) {
      const found = record
      const at = (index: number, reason: string, code = 'bad-value'): UserError => {
        const { line, column } = locateField(file.path, found, index)
        return halieError(reason, { file: file.display, line, column, field: header[index] }, code)
      }
      const fields = record.fields
      if (fields.length !== header.length)
        throw at(
          Math.min(fields.length, header.length),
          `expected ${header.length} cells as in the header, found ${fields.length}`,
          'ragged-row',
        )
      for (let i = 0; i < fields.length; i++) {
        const check = checks[i]
        if (!check) continue
        const cell = fields[i] as string
        try {
          check(cell)
        } catch (e) {
          if (!(e instanceof CellError)) throw e
          const where = e.offset > 0 ? ` (at character ${e.offset + 1})` : ''
          throw at(i, `${e.message}${where}, found ${JSON.stringify(cell.slice(0, 60))}`)
        }
      }
      if (fields[sessionColumn] === '') throw at(sessionColumn, 'a row needs its session id')
      rows.push({ line: record.line, cells: fields })
    }
    return { file, header, rows, bytes: csv.size, sha256: csv.sha256() }
  } finally {
    csv.close()
  }
}

function next(csv: ReturnType<typeof openCsv>, display: string): CsvRecord | null {
  try {
    return csv.next()
  } catch (e) {
    throw relocated(e, display)
  }
}

/** The CSV reader's error, naming the file as the folder has it. */
function relocated(e: unknown, display: string): unknown {
  if (!(e instanceof UserError)) return e
  const { line, column, field, code } = e.info
  const reason = e.message.replace(/^[^:]*(:\d+)?(:\d+)?: /, '')
  return halieError(
    reason,
    {
      file: display,
      ...(line ? { line } : {}),
      ...(column ? { column } : {}),
      ...(field ? { field } : {}),
    },
    code,
  )
}

export interface ReadLog {
  file: LogFile
  /** Each line as written, and its event. */
  lines: string[]
  events: LogEvent[]
  bytes: number
}

function decode(bytes: Uint8Array, display: string): string {
  const bad = firstInvalidUtf8(bytes)
  if (bad !== -1) throw halieError('the file is not UTF-8 text', { file: display }, 'invalid-utf8')
  const text = new TextDecoder('utf-8').decode(bytes)
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** Reads a raw log: one JSON object per line, each checked. */
export function readLog(file: LogFile): ReadLog {
  const bytes = file.bytes ?? readFileSync(file.path)
  const text = decode(bytes, file.display)
  const lines: string[] = []
  const events: LogEvent[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') return
    try {
      events.push(parseLogLine(line, events.length))
    } catch (e) {
      if (!(e instanceof LogLineError)) throw e
      throw halieError(
        e.message.replace(/^[a-zA-Z]+: /, ''),
        {
          file: file.display,
          line: i + 1,
          column: e.column,
          ...(e.field ? { field: e.field } : {}),
        },
        'bad-json',
      )
    }
    lines.push(line)
  })
  if (events.length === 0)
    throw halieError('the log holds no events', { file: file.display }, 'empty-file')
  return { file, lines, events, bytes: bytes.length }
}

export interface SessionMetadata {
  task: HalieTask
  sessionId: string
  line: string
}

/** Session metadata: one JSON object per line, joined on `verification_code`. */
export function readMetadata(file: MetadataFile): { records: SessionMetadata[]; bytes: number } {
  const bytes = readFileSync(file.path)
  const text = decode(bytes, file.display)
  const records: SessionMetadata[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim()
    if (line === '') return
    const at = { file: file.display, line: i + 1, column: 1 }
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      throw halieError('not valid JSON', at, 'bad-json')
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw halieError('expected a JSON object', at, 'bad-json')
    const v = value as Record<string, unknown>
    const id = v.verification_code ?? v.session_id
    if (typeof id !== 'string' || id === '')
      throw halieError('a session needs its verification_code or session_id', at, 'bad-value')
    const domain = typeof v.domain === 'string' ? METADATA_DOMAINS[v.domain] : undefined
    const task = domain ?? file.task
    if (!task)
      throw halieError(`domain: expected interactiveqa, metaphor or summarization`, {
        ...at,
        field: 'domain',
      })
    records.push({ task, sessionId: id, line })
  })
  return { records, bytes: bytes.length }
}
