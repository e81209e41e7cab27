import { createHash } from 'node:crypto'
import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs'
import { ParquetWriter, fileWriter } from 'hyparquet-writer'
import type { ReleaseFormat } from '../../shared/contract/release'
import { csvField, neutralizeFormula } from './cells'
import { RELEASE_LAYOUT, type ReleaseRecord, recordCells } from './record'

/** One release file being written, row by row. */
export interface RecordWriter {
  write(record: ReleaseRecord): void
  /** Finishes the file and says what it holds. */
  close(): WrittenFile
}

export interface WrittenFile {
  rows: number
  annotations: number
  bytes: number
  sha256: string
}

export interface WriterOptions {
  neutralizeFormulas: boolean
  /** Written into Parquet's `created_by`. */
  createdBy: string
}

export function openWriter(
  format: ReleaseFormat,
  path: string,
  options: WriterOptions,
): RecordWriter {
  switch (format) {
    case 'csv':
      return csvWriter(path, options)
    case 'jsonl':
      return jsonlWriter(path, options)
    case 'parquet':
      return parquetWriter(path, options)
  }
}

const FLUSH_AT = 1 << 20

/** Text written through a buffer of about 1 MB, hashed as it goes. */
class TextSink {
  private readonly fd: number
  private readonly hash = createHash('sha256')
  private parts: string[] = []
  private pending = 0
  bytes = 0

  constructor(path: string) {
    this.fd = openSync(path, 'wx')
  }

  add(text: string): void {
    this.parts.push(text)
    this.pending += text.length
    if (this.pending >= FLUSH_AT) this.flush()
  }

  private flush(): void {
    if (this.parts.length === 0) return
    const chunk = Buffer.from(this.parts.join(''), 'utf8')
    this.parts = []
    this.pending = 0
    this.hash.update(chunk)
    let offset = 0
    while (offset < chunk.length) offset += writeSync(this.fd, chunk, offset)
    this.bytes += chunk.length
  }

  close(): { bytes: number; sha256: string } {
    this.flush()
    closeSync(this.fd)
    return { bytes: this.bytes, sha256: this.hash.digest('hex') }
  }
}

/** Columns that hold text a person typed (the others are ids, numbers and dates we write). */
const TEXT_COLUMNS = new Set(
  RELEASE_LAYOUT.map((name, i) => [name, i] as const)
    .filter(
      ([name]) =>
        ![
          'submission_time_normalized',
          'worker_quality_rating',
          'selected_sentence_index',
          'number_filled_in',
        ].includes(name),
    )
    .map(([, i]) => i),
)

function csvWriter(path: string, options: WriterOptions): RecordWriter {
  const sink = new TextSink(path)
  let rows = 0
  let annotations = 0
  // CRLF line ends, as RFC 4180 writes them.
  sink.add(RELEASE_LAYOUT.map(csvField).join(',') + '\r\n')
  return {
    write(record) {
      const cells = recordCells(record)
      for (let i = 0; i < cells.length; i++) {
        const cell = cells[i] as string
        cells[i] = csvField(
          options.neutralizeFormulas && TEXT_COLUMNS.has(i) ? neutralizeFormula(cell) : cell,
        )
      }
      sink.add(cells.join(',') + '\r\n')
      rows++
      annotations += record.filled
    },
    close: () => ({ rows, annotations, ...sink.close() }),
  }
}

/** One JSON object per submission, its filled dimensions nested in dimension order. */
function jsonRecord(record: ReleaseRecord): unknown {
  const dimensions: unknown[] = []
  for (let d = 1; d <= 10; d++) {
    const t = record.dimensions[d]
    if (t) dimensions.push({ dimension: d, ...t })
  }
  return {
    experiment_id: record.experimentId,
    story_id: record.storyId,
    worker_id: record.workerId,
    submission_time_normalized: record.date,
    tier: record.tier,
    selected_sentence_index: record.sentenceIndex,
    story: record.story,
    selected_sentence: record.sentence,
    number_filled_in: record.filledCell,
    dimensions,
  }
}

function jsonlWriter(path: string, options: WriterOptions): RecordWriter {
  const sink = new TextSink(path)
  let rows = 0
  let annotations = 0
  return {
    write(record) {
      const r = options.neutralizeFormulas ? neutralizeRecord(record) : record
      sink.add(JSON.stringify(jsonRecord(r)) + '\n')
      rows++
      annotations += record.filled
    },
    close: () => ({ rows, annotations, ...sink.close() }),
  }
}

function neutralizeRecord(r: ReleaseRecord): ReleaseRecord {
  const n = neutralizeFormula
  return {
    ...r,
    experimentId: n(r.experimentId),
    storyId: n(r.storyId),
    workerId: n(r.workerId),
    story: n(r.story),
    sentence: n(r.sentence),
    dimensions: r.dimensions.map(
      (t) =>
        t && {
          specificNL: n(t.specificNL),
          specificStructured: n(t.specificStructured),
          generalNL: n(t.generalNL),
          generalStructured: n(t.generalStructured),
        },
    ),
  }
}

/** Integer columns of the Parquet schema; every other column is UTF-8 text. */
const INT_COLUMNS = new Set([
  'worker_quality_rating',
  'selected_sentence_index',
  'number_filled_in',
])

/** The Parquet schema of the release layout: every column required, types stated. */
const PARQUET_SCHEMA = [
  { name: 'root', num_children: RELEASE_LAYOUT.length },
  ...RELEASE_LAYOUT.map((name) =>
    INT_COLUMNS.has(name)
      ? { name, type: 'INT32' as const, repetition_type: 'REQUIRED' as const }
      : {
          name,
          type: 'BYTE_ARRAY' as const,
          converted_type: 'UTF8' as const,
          repetition_type: 'REQUIRED' as const,
        },
  ),
]

/** Rows per row group: the columns of one group are held in memory until it is written. */
const ROW_GROUP = 5_000

function parquetWriter(path: string, options: WriterOptions): RecordWriter {
  // Created exclusively, like the text files: a release never writes over a file.
  closeSync(openSync(path, 'wx'))
  const writer = new ParquetWriter({
    writer: fileWriter(path),
    schema: PARQUET_SCHEMA,
    createdBy: options.createdBy,
  })
  let columns: (string | number)[][] = RELEASE_LAYOUT.map(() => [])
  let rows = 0
  let annotations = 0
  const flush = (): void => {
    if ((columns[0]?.length ?? 0) === 0) return
    void writer.write({
      columnData: RELEASE_LAYOUT.map((name, i) => ({ name, data: columns[i] ?? [] })),
      rowGroupSize: ROW_GROUP,
    })
    columns = RELEASE_LAYOUT.map(() => [])
  }
  return {
    write(record) {
      const cells = recordCells(record)
      for (let i = 0; i < cells.length; i++) {
        const name = RELEASE_LAYOUT[i] as string
        let cell = cells[i] as string
        if (options.neutralizeFormulas && TEXT_COLUMNS.has(i)) cell = neutralizeFormula(cell)
        columns[i]?.push(INT_COLUMNS.has(name) ? Number(cell) : cell)
      }
      rows++
      annotations += record.filled
      if ((columns[0]?.length ?? 0) >= ROW_GROUP) flush()
    },
    close() {
      flush()
      void writer.finish()
      return { rows, annotations, ...hashFile(path) }
    },
  }
}

/** Size and SHA-256 of a written file, read back in 1 MB pieces. */
export function hashFile(path: string): { bytes: number; sha256: string } {
  const hash = createHash('sha256')
  const buffer = Buffer.allocUnsafe(FLUSH_AT)
  const fd = openSync(path, 'r')
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null)
      if (n === 0) break
      hash.update(buffer.subarray(0, n))
    }
  } finally {
    closeSync(fd)
  }
  return { bytes: statSync(path).size, sha256: hash.digest('hex') }
}
