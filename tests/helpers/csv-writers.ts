import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { ESCAPED, HIDDEN, parseNL } from '../../src/shared/glucose/grammar'
import { joinReferences } from '../../src/shared/glucose/references'
import {
  dimensionColumns,
  QUALITY_COLUMNS,
  RELEASE_COLUMNS,
  TEST_COLUMNS,
} from '../../src/main/importers/glucose/columns'
import type { ImportedAnnotation, ImportedSubmission } from '../../src/main/importers/types'
import { assignmentIdFor, mturkWorkerId } from '../../src/main/synth/workers'

/**
 * Writers for the three GLUCOSE CSV layouts, written apart from the importers so the tests and
 * benchmarks check those against an independent reading of the format. They stream rows to disk in
 * batches.
 */

export interface ReleaseWriteOptions {
  /** Default `worker_quality_rating`. */
  qualityHeader?: (typeof QUALITY_COLUMNS)[number]
  /** `int` writes ids as they are (`19`); `mturk` writes MTurk-style ids (`A…`). */
  workerStyle: 'int' | 'mturk'
  /** `int`: `3`, `-1`, `1.5`; `float`: `3.0`, `-1.0`, `1.5` (the dev sample's style). */
  ratingStyle: 'int' | 'float'
  crlf?: boolean
}

export interface TestWriteOptions {
  /** false writes `answered` for every filled cell, like `test_set_no_answers.csv`. */
  answers: boolean
  crlf: boolean
}

/** The 49-column release layout. Returns the number of data rows written. */
export function writeReleaseCsv(
  path: string,
  submissions: Iterable<ImportedSubmission>,
  opts: ReleaseWriteOptions,
): number {
  const out = new BatchWriter(path, opts.crlf ? '\r\n' : '\n')
  try {
    const header = [...RELEASE_COLUMNS]
    header[4] = opts.qualityHeader ?? QUALITY_COLUMNS[0]
    out.row(header)
    let rows = 0
    for (const s of submissions) {
      const dims = byDimension(s.annotations)
      const cells: string[] = []
      for (let n = 1; n <= 10; n++) {
        const a = dims[n]
        if (a)
          cells.push(
            a.specificNL,
            a.specificStructured ?? ESCAPED,
            a.generalNL,
            a.generalStructured ?? ESCAPED,
          )
        else cells.push(ESCAPED, ESCAPED, ESCAPED, ESCAPED)
      }
      out.row([
        `${s.storyExternalId}__${s.sentenceIndex}`,
        s.storyExternalId,
        worker(s.workerExternalId, opts.workerStyle),
        s.submittedAt === null ? '' : yyyymmdd(s.submittedAt),
        rating(s.fileRating, opts.ratingStyle),
        String(s.sentenceIndex),
        s.storyText,
        selectedSentence(s),
        ...cells,
        String(s.declaredFilled ?? s.annotations.length),
      ])
      rows++
    }
    return rows
  } finally {
    out.close()
  }
}

/**
 * `dim_1.csv` … `dim_10.csv` like the dev sample: one row per (assignment, filled dimension),
 * MTurk ids, year-less dates, float ratings, model prompt and gold columns. Returns rows per file.
 */
export function writeDimensionCsvs(
  dir: string,
  submissions: Iterable<ImportedSubmission>,
): number[] {
  const files = Array.from(
    { length: 10 },
    (_, i) => new BatchWriter(join(dir, `dim_${i + 1}.csv`), '\n'),
  )
  const counts = new Array<number>(10).fill(0)
  try {
    files.forEach((f, i) => f.row(dimensionColumns(i + 1)))
    for (const s of submissions) {
      const selected = selectedSentence(s)
      const assignment = s.assignmentId ?? assignmentIdFor(s.sourceKey)
      for (const a of s.annotations) {
        const prompt = `${s.storyText} # ${selected} # ${a.dimension} # `
        files[a.dimension - 1]?.row([
          `${s.storyExternalId}__${s.sentenceIndex}`,
          s.storyExternalId,
          assignment,
          worker(s.workerExternalId, 'mturk'),
          s.submittedAt === null ? '' : yearlessDate(s.submittedAt),
          rating(s.fileRating, 'float'),
          String(s.sentenceIndex),
          s.storyText,
          selected,
          a.specificNL,
          a.specificStructured ?? '',
          a.generalNL,
          '',
          a.generalStructured ?? '',
          prompt,
          goldOutput(a.specificNL, a.dimension),
          prompt,
          goldOutput(a.generalNL, a.dimension),
        ])
        counts[a.dimension - 1]!++
      }
    }
    return counts
  } finally {
    for (const f of files) f.close()
  }
}

/** The 24-column test-set layout; stories `****`-joined. Returns the number of data rows. */
export function writeTestCsv(
  path: string,
  items: Iterable<ImportedSubmission>,
  opts: TestWriteOptions,
): number {
  const out = new BatchWriter(path, opts.crlf ? '\r\n' : '\n')
  try {
    out.row([...TEST_COLUMNS])
    let rows = 0
    for (const s of items) {
      const dims = byDimension(s.annotations)
      const cells: string[] = []
      for (let n = 1; n <= 10; n++) {
        const a = dims[n]
        if (!a) cells.push(ESCAPED, ESCAPED)
        else if (!opts.answers) cells.push(HIDDEN, HIDDEN)
        else cells.push(a.specificNL, a.generalNL)
      }
      out.row([
        `${s.storyExternalId}__${s.sentenceIndex}`,
        joinReferences(s.sentences.map((x) => x.text)),
        selectedSentence(s),
        s.workerRef ?? s.workerExternalId ?? '',
        ...cells,
      ])
      rows++
    }
    return rows
  } finally {
    out.close()
  }
}

/** RFC 4180: quote a field only when it holds a quote, comma or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

class BatchWriter {
  private readonly fd: number
  private parts: string[] = []
  private size = 0

  constructor(
    path: string,
    private readonly eol: string,
  ) {
    this.fd = openSync(path, 'w')
  }

  row(fields: readonly string[]): void {
    const line = fields.map(csvField).join(',') + this.eol
    this.parts.push(line)
    this.size += line.length
    if (this.size >= 1 << 20) this.flush()
  }

  private flush(): void {
    if (this.parts.length > 0) writeSync(this.fd, this.parts.join(''))
    this.parts = []
    this.size = 0
  }

  close(): void {
    try {
      this.flush()
    } finally {
      closeSync(this.fd)
    }
  }
}

function byDimension(
  annotations: readonly ImportedAnnotation[],
): (ImportedAnnotation | undefined)[] {
  const dims: (ImportedAnnotation | undefined)[] = []
  for (const a of annotations) dims[a.dimension] = a
  return dims
}

function selectedSentence(s: ImportedSubmission): string {
  return s.sentences.find((x) => x.index === s.sentenceIndex)?.text ?? ''
}

function worker(id: string | null, style: 'int' | 'mturk'): string {
  if (id === null) return ''
  return style === 'mturk' ? mturkWorkerId(id) : id
}

function rating(value: number | null, style: 'int' | 'float'): string {
  if (value === null) return ''
  return style === 'float' && Number.isInteger(value) ? value.toFixed(1) : String(value)
}

function yyyymmdd(epoch: number): string {
  return new Date(epoch * 1000).toISOString().slice(0, 10).replace(/-/g, '')
}

/** `917` = 17 Sep, `1128` = 28 Nov: month without a leading zero, then two-digit day. */
function yearlessDate(epoch: number): string {
  const d = new Date(epoch * 1000)
  return `${d.getUTCMonth() + 1}${String(d.getUTCDate()).padStart(2, '0')}`
}

/** The models' target: the half of the NL that is not the selected sentence. */
function goldOutput(nl: string, dimension: number): string {
  const p = parseNL(nl)
  if (p === null) return ''
  return dimension <= 5 ? p.left : p.right
}
