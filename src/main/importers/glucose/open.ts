import { type CsvReader, type CsvReaderOptions, locateField, openCsv } from '../csv'
import { InputError } from '../errors'
import type { GlucoseFormat, ImportedSubmission, ImportWarning } from '../types'
import { closestFormat, describeHeaderDifference, matchHeader } from './columns'
import { RowContext } from './context'
import { dimensionMapper } from './dimension'
import { parseGlucoseDate } from './fields'
import { releaseMapper, type RowMapper } from './release'
import { testSetMapper } from './test-set'

export interface OpenGlucoseOptions {
  /** Forces the layout; the header must still match it. */
  format?: GlucoseFormat
  /** The year of year-less dates (per-dimension files). */
  year?: number
  csv?: CsvReaderOptions
  /** Keys held in memory before they move to disk (`KEYS_IN_MEMORY`); tests set it low. */
  keysInMemory?: number
}

export interface GlucoseFile {
  format: GlucoseFormat
  /** The dimension of a per-dimension file. */
  dimension?: number
  header: string[]
  /** Yields one submission per row as it reads; throws `InputError` on bad input. */
  records(): Generator<ImportedSubmission>
  /** Filled while `records()` runs. */
  warnings: ImportWarning[]
  reader: CsvReader
  /** Where the keys of the rows read are; their store on disk is closed when `records()` ends. */
  keyStore(): 'memory' | 'disk' | 'closed'
}

/** Opens a GLUCOSE CSV and checks its header; rows are read lazily by `records()`. */
export function openGlucoseFile(path: string, opts: OpenGlucoseOptions = {}): GlucoseFile {
  const reader = openCsv(path, opts.csv)
  try {
    const first = reader.next()
    if (first === null) throw new Error('unreachable: the reader refuses an empty file')
    const header = first.fields
    const match = matchHeader(header, opts.format)
    if (match === null) {
      const diff = describeHeaderDifference(header, opts.format ?? closestFormat(header))
      const detected = opts.format === undefined ? undefined : matchHeader(header)?.format
      const reason =
        opts.format === undefined
          ? diff.message
          : `the chosen format ${opts.format} does not match this file` +
            (detected ? ` (its header is ${detected})` : '') +
            `: ${diff.message}`
      throw new InputError(opts.format === undefined ? 'wrong-header' : 'format-mismatch', reason, {
        path,
        ...locateField(path, first, diff.column),
      })
    }
    const ctx = new RowContext(path, header, opts.year, opts.keysInMemory)
    const mapper: RowMapper =
      match.format === 'glucose-release'
        ? releaseMapper(ctx, match.assignmentColumn)
        : match.format === 'glucose-dimension'
          ? dimensionMapper(ctx, match.dimension ?? 1)
          : testSetMapper(ctx)
    return {
      format: match.format,
      ...(match.dimension !== undefined ? { dimension: match.dimension } : {}),
      header,
      warnings: ctx.warnings,
      reader,
      keyStore: () => ctx.keyStore(),
      *records() {
        try {
          for (let r = reader.next(); r !== null; r = reader.next()) {
            ctx.expectWidth(r, mapper.width)
            yield mapper.map(r)
          }
        } finally {
          reader.close()
          ctx.close()
        }
      },
    }
  } catch (e) {
    reader.close()
    throw e
  }
}

export interface GlucoseProbe {
  format: GlucoseFormat | null
  dimension?: number
  /** The first row's date has no year, so the import needs one. */
  needsYear: boolean
  /** Why the file cannot be imported as it is, or null. */
  problem: string | null
}

/** Reads the header and the first row: enough for an import dialog to ask the right questions. */
export function probeGlucoseFile(
  path: string,
  opts: { format?: GlucoseFormat } = {},
): GlucoseProbe {
  let file: GlucoseFile
  try {
    file = openGlucoseFile(path, opts.format ? { format: opts.format } : {})
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    return { format: null, needsYear: false, problem: e.message }
  }
  try {
    const row = file.reader.next()
    const dateColumn =
      file.format === 'glucose-test' ? -1 : file.format === 'glucose-release' ? 3 : 4
    const assignment = file.header.indexOf('assignment_id')
    const offset = file.format === 'glucose-release' && assignment !== -1 && assignment <= 3 ? 1 : 0
    const cell = row?.fields[dateColumn + offset] ?? ''
    const needsYear = dateColumn !== -1 && parseGlucoseDate(cell)?.kind === 'yearless'
    return {
      format: file.format,
      ...(file.dimension !== undefined ? { dimension: file.dimension } : {}),
      needsYear,
      problem: null,
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    return { format: file.format, needsYear: false, problem: e.message }
  } finally {
    file.reader.close()
  }
}
