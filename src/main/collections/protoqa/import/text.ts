import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { firstInvalidUtf8 } from '../../../importers/csv'
import { InputError } from '../../../importers/errors'
import { lineColumn } from './jsonLine'

/** A small input file read whole (ProtoQA files are a few MB at most). */
export interface TextFile {
  path: string
  text: string
  bytes: number
  sha256: string
}

export function readTextFile(path: string): TextFile {
  let buffer: Buffer
  try {
    buffer = readFileSync(path)
  } catch (error) {
    throw new InputError('unreadable', `cannot read the file (${(error as Error).message})`, {
      path,
      line: 0,
      column: 0,
    })
  }
  if (buffer.length === 0)
    throw new InputError('empty-file', 'the file is empty', { path, line: 0, column: 0 })
  const bad = firstInvalidUtf8(buffer)
  if (bad !== -1) {
    const before = buffer.subarray(0, bad).toString('utf8')
    throw new InputError('invalid-utf8', 'the file is not UTF-8 text', {
      path,
      ...lineColumn(before, before.length),
    })
  }
  let text = buffer.toString('utf8')
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  return {
    path,
    text,
    bytes: buffer.length,
    sha256: createHash('sha256').update(buffer).digest('hex'),
  }
}

/** The file's non-blank lines with their 1-based numbers. */
export function* textLines(text: string): Generator<{ line: number; text: string }, void> {
  let line = 0
  for (const raw of text.split('\n')) {
    line++
    const t = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (t.trim() !== '') yield { line, text: t }
  }
}
