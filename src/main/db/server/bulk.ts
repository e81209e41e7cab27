import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { StringDecoder } from 'node:string_decoder'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { COLLECTION_TABLES } from '../../collections/teams'
import type { BulkTable, BulkType, BulkValue } from './bulkTable'
import type { ServerClient } from './connect'

export type { BulkTable, BulkType, BulkValue }

/**
 * The bulk data of a collection travels once, by COPY in PostgreSQL's text format: a lead
 * publishing a project sends each table in one stream, a joining member receives each in one
 * stream. Rows keep the ids they have on the server, so every replica names a submission, an
 * annotation or a worker by the same id; the change set that brought a row is named by its
 * global id.
 */
const t = (name: string, ...columns: [string, BulkType][]): BulkTable => ({
  name,
  columns: columns.map(([n, type]) => ({ name: n, type })),
})

/** In the order they are written, parents first. */
export const BULK_TABLES: readonly BulkTable[] = [
  t('settings', ['key', 'text'], ['value', 'text']),
  t('workers', ['id', 'int'], ['external_id', 'text']),
  t('stories', ['id', 'int'], ['external_id', 'text'], ['text', 'text']),
  t('sentences', ['story_id', 'int'], ['idx', 'int'], ['text', 'text']),
  t(
    'source_files',
    ['id', 'int'],
    ['name', 'text'],
    ['path', 'text'],
    ['sha256', 'text'],
    ['bytes', 'int'],
    ['format', 'text'],
    ['year', 'int'],
    ['imported_at', 'int'],
    ['change_set_uid', 'uid'],
    ['records', 'int'],
    ['submissions_added', 'int'],
    ['annotations_added', 'int'],
    ['warnings', 'text'],
  ),
  t(
    'submissions',
    ['id', 'int'],
    ['source_key', 'text'],
    ['assignment_id', 'text'],
    ['worker_id', 'int'],
    ['worker_ref', 'text'],
    ['story_id', 'int'],
    ['sentence_index', 'int'],
    ['submitted_at', 'int'],
    ['accepted_at', 'int'],
    ['file_rating', 'real'],
    ['declared_filled', 'int'],
    ['source_file_id', 'int'],
    ['source_line', 'int'],
    ['change_set_uid', 'uid'],
    ['flags', 'int'],
    ['raw', 'text'],
  ),
  t(
    'annotations',
    ['id', 'int'],
    ['submission_id', 'int'],
    ['dimension', 'int'],
    ['worker_id', 'int'],
    ['story_id', 'int'],
    ['sentence_index', 'int'],
    ['submitted_at', 'int'],
    ['file_rating', 'real'],
    ['flags', 'int'],
  ),
  t(
    'annotation_texts',
    ['annotation_id', 'int'],
    ['specific_nl', 'text'],
    ['specific_structured', 'text'],
    ['general_nl', 'text'],
    ['general_structured', 'text'],
  ),
]

/**
 * What a team's bulk data is: the core's tables, then each collection's (declared in
 * `collections/<kind>/team.ts`), parents first.
 */
export const SHARED_TABLES: readonly BulkTable[] = [...BULK_TABLES, ...COLLECTION_TABLES]

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

function encodeField(value: BulkValue): string {
  if (value === null) return '\\N'
  if (typeof value === 'number') return String(value)
  return value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c)
}

const UNESCAPES: Record<string, string> = {
  '\\': '\\',
  t: '\t',
  n: '\n',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
}

function decodeField(text: string, type: BulkType): BulkValue {
  if (text === '\\N') return null
  if (type === 'int' || type === 'real') return Number(text)
  // A project keeps a global id as 32 hex digits, the server as a UUID.
  if (type === 'uid') return text.replace(/-/g, '')
  return text.includes('\\') ? text.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c) : text
}

/** Sends rows into a server table with one COPY; returns how many. */
export async function copyRowsIn(
  client: ServerClient,
  table: BulkTable,
  rows: Iterable<readonly BulkValue[]>,
  onRows?: (n: number) => void,
  into = `winnow.${table.name}`,
): Promise<number> {
  let count = 0
  function* lines(): Generator<string> {
    let chunk = ''
    for (const row of rows) {
      chunk += row.map(encodeField).join('\t') + '\n'
      count++
      if (chunk.length > 1 << 20) {
        yield chunk
        chunk = ''
        onRows?.(count)
      }
    }
    if (chunk) yield chunk
    onRows?.(count)
  }
  const columns = table.columns.map((c) => c.name).join(', ')
  const stream = client.query(copyFrom(`COPY ${into} (${columns}) FROM STDIN`))
  await pipeline(Readable.from(lines()), stream)
  return count
}

/**
 * Receives a server table with one COPY, handing rows to `write` in batches (a synchronous write,
 * e.g. one SQLite transaction per batch). Returns how many rows came.
 */
export async function copyRowsOut(
  client: ServerClient,
  table: BulkTable,
  write: (rows: BulkValue[][]) => void,
  batchSize = 5000,
  where = 'true',
): Promise<number> {
  const columns = table.columns.map((c) => c.name).join(', ')
  const source = client.query(
    copyTo(
      `COPY (SELECT ${columns} FROM winnow.${table.name} WHERE ${where} ORDER BY 1) TO STDOUT`,
    ),
  )
  const decoder = new StringDecoder('utf8')
  const types = table.columns.map((c) => c.type)
  let rest = ''
  let batch: BulkValue[][] = []
  let count = 0
  const take = (text: string): void => {
    const lines = (rest + text).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      const fields = line.split('\t')
      // A plain loop into the row the insert binds: no closure and no second array per row.
      const row: BulkValue[] = new Array<BulkValue>(types.length)
      for (let i = 0; i < types.length; i++) {
        row[i] = decodeField(fields[i] ?? '\\N', types[i] as BulkType)
      }
      batch.push(row)
      count++
      if (batch.length >= batchSize) {
        write(batch)
        batch = []
      }
    }
  }
  await pipeline(
    source,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        try {
          take(decoder.write(chunk))
          done()
        } catch (error) {
          done(error as Error)
        }
      },
      final(done) {
        try {
          take(decoder.end())
          if (batch.length > 0) write(batch)
          done()
        } catch (error) {
          done(error as Error)
        }
      },
    }),
  )
  return count
}
