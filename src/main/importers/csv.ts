import { isAscii } from 'node:buffer'
import { type Hash, createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { InputError, fileProblem, type InputErrorCode, showValue } from './errors'

export interface CsvRecord {
  fields: string[]
  /** 1-based line where the record starts. */
  line: number
  /** Byte offset of the record start. */
  offset: number
}

export interface CsvReaderOptions {
  /** Default 1 MiB. */
  maxFieldBytes?: number
  /** Default 1 MiB. */
  chunkBytes?: number
  /** Hash the bytes as they are read; `sha256()` gives the digest once the file is read. */
  sha256?: boolean
}

export interface CsvReader {
  readonly path: string
  readonly size: number
  bytesRead(): number
  /** Hex SHA-256 of the whole file, once `next()` has returned null (with the `sha256` option). */
  sha256(): string
  /** The next record, or null at the end; empty lines are skipped. Throws `InputError`. */
  next(): CsvRecord | null
  close(): void
}

const MiB = 1 << 20
const QUOTE = 34
const COMMA = 44
const LF = 10
const CR = 13
const NEED_MORE = Symbol('need more')

/** Opens an RFC-4180 CSV file (UTF-8, optional BOM, LF or CRLF) for synchronous streaming. */
export function openCsv(path: string, opts: CsvReaderOptions = {}): CsvReader {
  return new StreamingCsvReader(
    path,
    opts.maxFieldBytes ?? MiB,
    opts.chunkBytes ?? MiB,
    opts.sha256 ? createHash('sha256') : null,
  )
}

/**
 * Scans decoded text with indexOf and slices fields out of it. The text buffer always starts at
 * the record being parsed; when a record runs past its end, the next chunk is appended and the
 * record is parsed again from its start (cheap: records are small next to chunks).
 */
class StreamingCsvReader implements CsvReader {
  readonly size: number
  private fd: number | null
  private readonly bytes: Buffer
  /** Bytes of an incomplete UTF-8 sequence kept at the front of `bytes` for the next read. */
  private carry = 0
  private filePos = 0
  private bomChecked = false
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  /** All of the file has been decoded into `text`. */
  private final = false
  private text = ''
  private textAscii = true
  /** Start of the current record in `text`, its line and its byte offset in the file. */
  private pos = 0
  private line = 1
  private byte = 0
  /** Next `\n`, `,` and `"` at or after `pos` (text.length when none); -1 = look again. */
  private nl = -1
  private cm = -1
  private qt = -1
  private records = 0
  /** A record cut by the end of the text: its finished fields and where the cut field starts. */
  private partial: { fields: string[]; at: number; lines: number } | null = null
  private digest: string | null = null

  constructor(
    readonly path: string,
    private readonly maxFieldBytes: number,
    private readonly chunkBytes: number,
    private readonly hash: Hash | null,
  ) {
    try {
      this.fd = openSync(path, 'r')
      const stat = fstatSync(this.fd)
      if (stat.isDirectory()) {
        closeSync(this.fd)
        throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' })
      }
      this.size = stat.size
    } catch (e) {
      throw new InputError('unreadable', fileProblem((e as NodeJS.ErrnoException).code), {
        path,
        line: 0,
        column: 0,
      })
    }
    this.bytes = Buffer.allocUnsafe(Math.max(chunkBytes, 4) + 4)
  }

  bytesRead(): number {
    return this.filePos
  }

  sha256(): string {
    if (this.digest === null) throw new Error(`${this.path}: not hashed, or not read to the end`)
    return this.digest
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd)
    this.fd = null
  }

  next(): CsvRecord | null {
    try {
      for (;;) {
        const r = this.parse()
        if (r !== NEED_MORE) {
          if (r === null) {
            this.close()
            if (this.records === 0)
              this.fail('empty-file', 'empty file; expected a header row', 1, 1)
          } else this.records++
          return r
        }
        this.fill()
      }
    } catch (e) {
      this.close()
      throw e
    }
  }

  private parse(): CsvRecord | null | typeof NEED_MORE {
    const text = this.text
    const len = text.length
    const final = this.final
    let pos = this.pos
    let fields: string[] = []
    let lines = 0
    const partial = this.partial
    // Resume a cut record at its cut field, so a long record is not scanned again per chunk.
    if (partial !== null) {
      this.partial = null
      pos = partial.at
      fields = partial.fields
      lines = partial.lines
    }
    // Skip empty lines (LF or CRLF) so a trailing blank line is not a one-field record.
    for (; partial === null;) {
      if (pos >= len) {
        this.advance(pos, 0)
        return final ? null : NEED_MORE
      }
      const c = text.charCodeAt(pos)
      if (c === LF) {
        this.advance(pos + 1, 1)
        pos++
      } else if (c === CR && pos + 1 < len && text.charCodeAt(pos + 1) === LF) {
        this.advance(pos + 2, 1)
        pos += 2
      } else if (c === CR && pos + 1 >= len) {
        if (!final) return NEED_MORE
        this.advance(pos + 1, 0)
        pos++
      } else break
    }
    let nl = this.nl < pos ? -1 : this.nl
    let cm = this.cm < pos ? -1 : this.cm
    let qt = this.qt < pos ? -1 : this.qt
    const limit = this.maxFieldBytes
    for (;;) {
      if (pos < len && text.charCodeAt(pos) === QUOTE) {
        const open = pos
        const linesBefore = lines
        let seg = pos + 1
        let value = ''
        for (;;) {
          const q = text.indexOf('"', seg)
          if (q === -1 || (q + 1 >= len && !final)) {
            if (final) return this.unterminated(open)
            return this.needMore(open, true, fields, lines)
          }
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(seg, q + 1)
            seg = q + 2
            continue
          }
          value += text.slice(seg, q)
          pos = q + 1
          break
        }
        // Count the line breaks inside the quotes; `nl` stays the next newline after the field.
        if (nl === -1 || nl < open) nl = indexOrLen(text, '\n', open)
        while (nl < pos) {
          lines++
          nl = indexOrLen(text, '\n', nl + 1)
        }
        if (value.length * 3 > limit) this.checkLength(value, open, true)
        fields.push(value)
        if (pos >= len) return this.finish(fields, pos, lines)
        const c = text.charCodeAt(pos)
        if (c === COMMA) {
          pos++
          continue
        }
        if (c === LF) return this.finish(fields, pos + 1, lines + 1)
        if (c === CR) {
          if (pos + 1 >= len) {
            if (!final) {
              fields.pop()
              return this.needMore(open, true, fields, linesBefore)
            }
            return this.finish(fields, pos + 1, lines)
          }
          if (text.charCodeAt(pos + 1) === LF) return this.finish(fields, pos + 2, lines + 1)
        }
        return this.failAt(
          'bad-after-quote',
          `expected ',' or end of line after closing quote, found ${showValue(text.slice(pos, pos + 1))}`,
          pos,
        )
      }
      if (cm < pos) cm = indexOrLen(text, ',', pos)
      if (nl === -1 || nl < pos) nl = indexOrLen(text, '\n', pos)
      const end = cm < nl ? cm : nl
      if (end === len && !final) return this.needMore(pos, false, fields, lines)
      if (qt < pos) qt = indexOrLen(text, '"', pos)
      if (qt < end) {
        return this.failAt(
          'stray-quote',
          `stray quote in unquoted field; expected the whole field in quotes with '""' for each quote inside`,
          qt,
        )
      }
      if ((end - pos) * 3 > limit) this.checkLength(text.slice(pos, end), pos, false)
      if (cm < nl) {
        fields.push(text.slice(pos, end))
        pos = end + 1
        continue
      }
      // The record ends at a newline or at the end of the file; drop the CR of a CRLF.
      const fieldEnd = end > pos && text.charCodeAt(end - 1) === CR ? end - 1 : end
      fields.push(text.slice(pos, fieldEnd))
      this.nl = nl
      this.cm = cm
      this.qt = qt
      return end === len ? this.finish(fields, len, lines) : this.finish(fields, end + 1, lines + 1)
    }
  }

  private finish(fields: string[], end: number, lines: number): CsvRecord {
    const record: CsvRecord = { fields, line: this.line, offset: this.byte }
    this.advance(end, lines)
    return record
  }

  /** Moves the record start to `end`, `lines` lines further down. */
  private advance(end: number, lines: number): void {
    if (end === this.pos) return
    this.byte += this.textAscii ? end - this.pos : Buffer.byteLength(this.text.slice(this.pos, end))
    this.line += lines
    this.pos = end
  }

  private needMore(
    fieldStart: number,
    quoted: boolean,
    fields: string[],
    lines: number,
  ): typeof NEED_MORE {
    const text = this.text
    // A field this long can only grow; fail now instead of buffering the rest of the file.
    if (text.length - fieldStart > this.maxFieldBytes) {
      this.checkLength(text.slice(fieldStart), fieldStart, quoted)
    }
    // A long record without a line feed but with CRs: a classic-Mac file, one line to us.
    if (text.length - this.pos > 1 << 16 && text.indexOf('\n', this.pos) === -1) {
      const cr = text.indexOf('\r', this.pos)
      if (cr !== -1) {
        this.failAt(
          'bad-line-endings',
          'lines end in CR only; expected LF or CRLF line endings',
          cr,
        )
      }
    }
    this.partial = { fields, at: fieldStart, lines }
    return NEED_MORE
  }

  private checkLength(value: string, start: number, quoted: boolean): void {
    if (value.length <= this.maxFieldBytes && Buffer.byteLength(value) <= this.maxFieldBytes) return
    const { line, column } = this.locate(start)
    const hint = quoted
      ? ` (quoted field opened at line ${line}, column ${column}: a missing closing quote?)`
      : ''
    this.fail(
      'field-too-long',
      `field longer than ${formatBytes(this.maxFieldBytes)}${hint}`,
      line,
      column,
    )
  }

  private unterminated(open: number): never {
    const { line, column } = this.locate(open)
    this.fail(
      'unterminated-quote',
      `unterminated quoted field (opened at line ${line}, column ${column}); expected a closing '"'`,
      line,
      column,
    )
  }

  private failAt(code: InputErrorCode, reason: string, at: number): never {
    const { line, column } = this.locate(at)
    this.fail(code, reason, line, column)
  }

  private fail(code: InputErrorCode, reason: string, line: number, column: number): never {
    throw new InputError(code, reason, { path: this.path, line, column })
  }

  /** Line and column (in code points) of `at` in `text`; records start at line starts. */
  private locate(at: number): { line: number; column: number } {
    let line = this.line
    let lineStart = this.pos
    for (
      let i = this.text.indexOf('\n', this.pos);
      i !== -1 && i < at;
      i = this.text.indexOf('\n', i + 1)
    ) {
      line++
      lineStart = i + 1
    }
    return { line, column: countCodePoints(this.text.slice(lineStart, at)) + 1 }
  }

  /** Reads and decodes the next chunk, appending it to the unparsed text. */
  private fill(): void {
    if (this.fd === null) {
      this.final = true
      return
    }
    const base = this.filePos - this.carry
    const n = readSync(this.fd, this.bytes, this.carry, this.chunkBytes, this.filePos)
    this.filePos += n
    if (this.hash !== null) {
      if (n > 0) this.hash.update(this.bytes.subarray(this.carry, this.carry + n))
      else this.digest = this.hash.digest('hex')
    }
    const end = this.carry + n
    let start = 0
    if (!this.bomChecked) {
      if (end < 3 && n > 0) {
        this.carry = end
        return
      }
      this.bomChecked = true
      if (end >= 3 && this.bytes[0] === 0xef && this.bytes[1] === 0xbb && this.bytes[2] === 0xbf) {
        start = 3
        this.byte = 3
      }
    }
    const boundary = n === 0 ? end : completeUtf8End(this.bytes, start, end)
    const piece = this.bytes.subarray(start, boundary)
    const pieceAscii = isAscii(piece)
    let decoded: string
    if (pieceAscii) decoded = piece.toString('latin1')
    else {
      try {
        decoded = this.decoder.decode(piece)
      } catch {
        this.invalidUtf8(piece, base + start, n === 0)
      }
    }
    const rest = this.text.slice(this.pos)
    const restAscii = this.textAscii || Buffer.byteLength(rest) === rest.length
    if (this.partial !== null) this.partial.at -= this.pos
    this.text = rest + decoded
    this.textAscii = restAscii && pieceAscii
    this.pos = 0
    this.nl = this.cm = this.qt = -1
    const nul = decoded.indexOf('\u0000')
    if (nul !== -1) {
      const at = rest.length + nul
      this.failAt(
        'binary-file',
        binaryFile(this.byte + Buffer.byteLength(this.text.slice(0, at))),
        at,
      )
    }
    this.carry = end - boundary
    this.bytes.copyWithin(0, boundary, end)
    if (n === 0) {
      this.close()
      this.final = true
    }
  }

  private invalidUtf8(piece: Buffer, pieceOffset: number, atEnd: boolean): never {
    const bad = firstInvalidUtf8(piece)
    const at = bad === -1 ? 0 : bad
    // A NUL byte before it says binary file (an executable, a spreadsheet) rather than another encoding.
    const nul = piece.subarray(0, at).indexOf(0)
    // Everything before the bad byte is valid; decode it to place the byte on a line.
    const before = new TextDecoder('utf-8').decode(piece.subarray(0, nul === -1 ? at : nul))
    this.text = this.text.slice(this.pos) + before
    this.pos = 0
    if (nul !== -1) this.failAt('binary-file', binaryFile(pieceOffset + nul), this.text.length)
    const byte = piece[at] ?? 0
    const truncated = atEnd ? ' (truncated at end of file)' : ''
    this.failAt(
      'invalid-utf8',
      `invalid UTF-8 byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at byte offset ${pieceOffset + at}${truncated}; expected UTF-8 text (re-save the file as UTF-8)`,
      this.text.length,
    )
  }
}

function binaryFile(offset: number): string {
  return `binary file (NUL byte at byte offset ${offset}); expected UTF-8 text`
}

/**
 * Line and column where field `index` of `record` starts, or where the record ends when it has
 * fewer fields. Error path only: re-reads the record from disk and walks it character by character.
 */
/**
 * Where field `index` of the record that starts on `line` begins, for a record no longer at hand
 * (a conflict found when rows are written). Reads the file up to that line.
 */
export function locateFieldOnLine(
  path: string,
  line: number,
  index: number,
): { line: number; column: number } {
  const fd = openSync(path, 'r')
  let offset = 0
  try {
    const chunk = Buffer.allocUnsafe(1 << 20)
    let at = 0
    let current = 1
    while (current < line) {
      const n = readSync(fd, chunk, 0, chunk.length, at)
      if (n === 0) break
      let i = 0
      while (current < line) {
        const nl = chunk.indexOf(10, i)
        if (nl === -1 || nl >= n) break
        current++
        i = nl + 1
        offset = at + i
      }
      at += n
    }
  } finally {
    closeSync(fd)
  }
  return locateField(path, { fields: new Array<string>(index + 1).fill(''), line, offset }, index)
}

export function locateField(
  path: string,
  record: CsvRecord,
  index: number,
): { line: number; column: number } {
  const fd = openSync(path, 'r')
  let text = ''
  try {
    const decoder = new TextDecoder('utf-8')
    const chunk = Buffer.allocUnsafe(64 * 1024)
    let at = record.offset
    // Enough text for the fields before `index` (cut at the 64 MiB mark: a message needs no more).
    for (let total = 0; total < 64 * MiB;) {
      const n = readSync(fd, chunk, 0, chunk.length, at)
      if (n === 0) break
      at += n
      total += n
      text += decoder.decode(chunk.subarray(0, n), { stream: true })
      if (record.fields.slice(0, index + 1).reduce((sum, f) => sum + f.length + 3, 0) < text.length)
        break
    }
  } finally {
    closeSync(fd)
  }
  let line = record.line
  let column = 1
  let field = 0
  let inQuotes = false
  let atStart = true
  let pendingQuote = false
  for (const ch of text) {
    if (atStart && field === index) return { line, column }
    if (pendingQuote) {
      pendingQuote = false
      if (ch === '"') {
        column++
        continue
      }
      inQuotes = false
    }
    if (inQuotes) {
      if (ch === '"') pendingQuote = true
      else if (ch === '\n') {
        line++
        column = 0
      }
    } else if (ch === ',') {
      field++
      atStart = true
      column++
      continue
    } else if (ch === '\n' || ch === '\r') return { line, column }
    else if (ch === '"' && atStart) inQuotes = true
    atStart = false
    column++
  }
  return { line, column }
}

function indexOrLen(text: string, ch: string, from: number): number {
  const i = text.indexOf(ch, from)
  return i === -1 ? text.length : i
}

function countCodePoints(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

function formatBytes(n: number): string {
  if (n % MiB === 0) return `${n / MiB} MiB`
  if (n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}

/** End of the last complete UTF-8 sequence in bytes[start, end): a split character waits. */
export function completeUtf8End(bytes: Uint8Array, start: number, end: number): number {
  for (let i = end - 1; i >= start && i >= end - 4; i--) {
    const b = bytes[i]!
    if ((b & 0xc0) === 0x80) continue // continuation byte: keep looking for the lead
    if (b < 0xc0) return end
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2
    return end - i < need ? i : end
  }
  return end
}

/** Offset of the first byte that starts an invalid or truncated UTF-8 sequence, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  const end = b.length
  let i = 0
  while (i < end) {
    const c = b[i]!
    if (c < 0x80) {
      i++
      continue
    }
    let n: number
    let lo = 0x80
    let hi = 0xbf
    if (c >= 0xc2 && c <= 0xdf) n = 1
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2
      if (c === 0xe0) lo = 0xa0
      else if (c === 0xed) hi = 0x9f
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3
      if (c === 0xf0) lo = 0x90
      else if (c === 0xf4) hi = 0x8f
    } else return i
    if (i + n >= end) return i
    const c1 = b[i + 1]!
    if (c1 < lo || c1 > hi) return i
    for (let k = 2; k <= n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i
    i += n + 1
  }
  return -1
}
