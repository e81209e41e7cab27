import { annotationFlags, ESCAPED } from '../../../shared/glucose/grammar'
import { AnnotationFlag, SubmissionFlag } from '../../../shared/glucose/flags'
import { KeysOnDisk } from '../../db/keysOnDisk'
import { type CsvRecord, locateField } from '../csv'
import { InputError, type InputErrorCode, showValue } from '../errors'
import type { ImportedAnnotation, ImportedSubmission, ImportWarning } from '../types'
import {
  EXPECTED,
  isAssignmentId,
  isStoryId,
  isWorkerId,
  parseFilledCount,
  parseGlucoseDate,
  parseRating,
  parseSentenceIndex,
  splitExperimentId,
  utcDay,
} from './fields'

const MAX_WARNINGS = 1000

/**
 * Keys a file's context holds in memory (about 121 bytes each) before it moves them to a
 * temporary database on disk: a mid-sized file keeps the in-memory set's speed, a large one's
 * memory stays flat (docs/benchmarks.md, "Peak memory of large jobs at ten million").
 */
export const KEYS_IN_MEMORY = 100_000

/**
 * A copy of `s` that does not keep its source alive. Fields are slices of the reader's 1 MiB
 * text chunks; an id kept as a map key downstream would otherwise pin its whole chunk (V8 sliced
 * strings), and a large import would hold the entire file in memory.
 */
export function detach(s: string): string {
  return (' ' + s).slice(1)
}

/**
 * What a row mapper needs besides the row: typed reads that fail with the file, line, column and
 * column name, the per-file duplicate-key count, and the warnings list.
 */
export class RowContext {
  readonly warnings: ImportWarning[] = []
  private warningsDropped = 0
  private readonly seen = new Set<string>()
  /** The keys seen so far once they outgrew `keysInMemory`; `seen` is then empty. */
  private onDisk: KeysOnDisk | null = null
  private readonly repeats = new Map<string, number>()

  constructor(
    readonly path: string,
    /** Header names by physical column index. */
    readonly header: readonly string[],
    readonly year: number | undefined,
    private readonly keysInMemory = KEYS_IN_MEMORY,
  ) {}

  /** Where the keys seen so far are: in memory, or in a store on disk that is open or closed. */
  keyStore(): 'memory' | 'disk' | 'closed' {
    return this.onDisk === null ? 'memory' : this.onDisk.open ? 'disk' : 'closed'
  }

  /** Deletes the store on disk, if any; the file's rows are read to the end or given up. */
  close(): void {
    this.onDisk?.close()
  }

  fail(record: CsvRecord, column: number, code: InputErrorCode, reason: string): never {
    const at = locateField(this.path, record, column)
    const field = this.header[column]
    throw new InputError(code, reason, { path: this.path, ...at, ...(field ? { field } : {}) })
  }

  expectWidth(record: CsvRecord, width: number): void {
    const n = record.fields.length
    if (n === width) return
    // Point at the first extra field, or at the end of a short row.
    this.fail(record, Math.min(n, width), 'ragged-row', `expected ${width} fields, found ${n}`)
  }

  private bad(record: CsvRecord, column: number, expected: string): never {
    const value = record.fields[column] ?? ''
    this.fail(record, column, 'bad-value', `expected ${expected}, found ${showValue(value)}`)
  }

  workerId(record: CsvRecord, column: number): string {
    const s = record.fields[column] ?? ''
    return isWorkerId(s) ? detach(s) : this.bad(record, column, EXPECTED.worker)
  }

  storyId(record: CsvRecord, column: number): string {
    const s = record.fields[column] ?? ''
    return isStoryId(s) ? detach(s) : this.bad(record, column, EXPECTED.story)
  }

  assignmentId(record: CsvRecord, column: number): string {
    const s = record.fields[column] ?? ''
    return isAssignmentId(s) ? detach(s) : this.bad(record, column, EXPECTED.assignment)
  }

  sentenceIndex(record: CsvRecord, column: number): number {
    return (
      parseSentenceIndex(record.fields[column] ?? '') ?? this.bad(record, column, EXPECTED.sentence)
    )
  }

  rating(record: CsvRecord, column: number): number | null {
    const r = parseRating(record.fields[column] ?? '')
    return r === undefined ? this.bad(record, column, EXPECTED.rating) : r
  }

  filledCount(record: CsvRecord, column: number): number {
    return parseFilledCount(record.fields[column] ?? '') ?? this.bad(record, column, EXPECTED.count)
  }

  /** Epoch seconds of the day; a year-less date takes the year given to the import. */
  date(record: CsvRecord, column: number): number {
    const s = record.fields[column] ?? ''
    const d = parseGlucoseDate(s)
    if (d === null) this.bad(record, column, EXPECTED.date)
    if (d.kind === 'full') return d.epoch
    if (this.year === undefined) {
      this.fail(
        record,
        column,
        'year-required',
        `the date '${s}' has no year; give the year the data was collected (e.g. --year 2019)`,
      )
    }
    return (
      utcDay(this.year, d.month, d.day) ??
      this.bad(record, column, `a date that exists in ${this.year}`)
    )
  }

  /**
   * `key`, or for a key the file already had: `key#2`, `key#3` … with a warning. An assignment
   * key is not renamed (it is the same assignment; the database merges it), only warned about.
   */
  uniqueKey(key: string, line: number, rename = true): { key: string; duplicate: boolean } {
    if (this.isNew(key)) return { key, duplicate: false }
    const n = (this.repeats.get(key) ?? 1) + 1
    this.repeats.set(key, n)
    const result = rename ? `${key}#${n}` : key
    this.warn({
      code: 'duplicate-key',
      line,
      message: `line ${line}: ${key} occurred before in this file; ${rename ? `imported as ${result}` : 'merged into it'}`,
    })
    return { key: result, duplicate: true }
  }

  private isNew(key: string): boolean {
    if (this.onDisk !== null) return this.onDisk.add(key)
    if (this.seen.has(key)) return false
    if (this.seen.size >= this.keysInMemory) {
      this.onDisk = new KeysOnDisk()
      this.onDisk.addAll(this.seen)
      this.seen.clear()
      return this.onDisk.add(key)
    }
    // Kept flat: a key built from its parts is a chain of them, twice the memory, and the set
    // holds a key per row of the file (230 → 121 bytes a row, 213,000 release rows).
    this.seen.add(detach(key))
    return true
  }

  warn(w: ImportWarning): void {
    if (this.warnings.length < MAX_WARNINGS) {
      this.warnings.push(w)
      return
    }
    this.warningsDropped++
    this.warnings[MAX_WARNINGS] = {
      code: 'too-many-warnings',
      line: w.line,
      message: `… and ${this.warningsDropped} more warnings`,
    }
  }
}

/**
 * One filled dimension from its cells, or null when every cell is `escaped`. Missing Structured
 * cells (test set) are null.
 */
export function annotationFromCells(
  dimension: number,
  specificNL: string,
  specificStructured: string | null,
  generalNL: string,
  generalStructured: string | null,
  references = false,
): ImportedAnnotation | null {
  if (
    specificNL === ESCAPED &&
    generalNL === ESCAPED &&
    (specificStructured ?? ESCAPED) === ESCAPED &&
    (generalStructured ?? ESCAPED) === ESCAPED
  ) {
    return null
  }
  const cells = { specificNL, specificStructured, generalNL, generalStructured }
  return { dimension, ...cells, flags: annotationFlags(dimension, cells, { references }) }
}

/** Submission flags that summarise its annotations and its count of filled dimensions. */
export function summaryFlags(
  annotations: readonly ImportedAnnotation[],
  oneIsSuspect: boolean,
): number {
  let any = 0
  for (const a of annotations) any |= a.flags
  let flags = any !== 0 ? SubmissionFlag.AnnotationFlagged : 0
  if (any & (AnnotationFlag.UnknownConnector | AnnotationFlag.ExtraConnector)) {
    flags |= SubmissionFlag.ConnectorProblem
  }
  if (any & AnnotationFlag.Hidden) flags |= SubmissionFlag.AnswersHidden
  if (annotations.length === 0) flags |= SubmissionFlag.NoDimension
  if (annotations.length === 1 && oneIsSuspect) flags |= SubmissionFlag.SingleDimension
  return flags
}

/** What a worker's row says in the release and per-dimension layouts, each field read and checked. */
export interface WorkerRow {
  experimentId: string
  storyExternalId: string
  worker: string
  assignmentId: string | null
  submittedAt: number
  fileRating: number | null
  sentenceIndex: number
  storyText: string
  selected: string
  declaredFilled: number | null
}

/** What a layout found in a worker's row besides its fields. */
export interface WorkerRowFindings {
  annotations: ImportedAnnotation[]
  /** What the layout flagged so far (`summaryFlags` and its own checks). */
  flags: number
  /** The row's key, from `RowContext.uniqueKey`. */
  unique: { key: string; duplicate: boolean }
}

/**
 * A worker's row as a submission, with the checks both layouts make: the experiment id names the
 * row's story and sentence, the selected sentence is in the story, the key is new in the file.
 */
export function workerSubmission(
  row: WorkerRow,
  found: WorkerRowFindings,
  line: number,
): ImportedSubmission {
  let flags = found.flags
  const id = splitExperimentId(row.experimentId)
  if (id === null || id.storyId !== row.storyExternalId || id.sentenceIndex !== row.sentenceIndex) {
    flags |= SubmissionFlag.IdMismatch
  }
  if (!row.storyText.includes(row.selected)) flags |= SubmissionFlag.SentenceMismatch
  if (found.unique.duplicate) flags |= SubmissionFlag.DuplicateKey
  return {
    sourceKey: found.unique.key,
    assignmentId: row.assignmentId,
    workerExternalId: row.worker,
    workerRef: null,
    storyExternalId: row.storyExternalId,
    storyText: row.storyText,
    sentences: [{ index: row.sentenceIndex, text: row.selected }],
    sentenceIndex: row.sentenceIndex,
    submittedAt: row.submittedAt,
    acceptedAt: null,
    fileRating: row.fileRating,
    declaredFilled: row.declaredFilled,
    line,
    flags,
    raw: null,
    annotations: found.annotations,
  }
}
