import { accessSync, constants, existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { UserError } from '../../shared/contract/errors'
import type { SqlFragment } from './sql'
import { APPLICATION_ID, migrate } from './migrations'
import type { Db } from './types'

export type { Db }

export { APPLICATION_ID }

export interface OpenOptions {
  /** Create the file if it does not exist (import, synth, File ▸ New). */
  create?: boolean
  readonly?: boolean
  /** Path of a better-sqlite3 addon built for this runtime (Electron uses its own build). */
  nativeBinding?: string
  /**
   * Map the file into memory for reads (the default: the grid's queries read the same pages
   * again and again). An import's connection reads each page about once, and mapped pages count
   * as the job's memory: with the map, the full-text indexing after a large import raised the
   * process's resident memory by the pages it mapped; without it, memory stayed flat, as fast.
   */
  memoryMap?: boolean
  /**
   * SQLite's page cache in MB, 64 by default (the grid reads the same pages again and again). A
   * job that reads the project through once fills it with pages it will not read again: at ten
   * million annotations the caches of a policy run's two connections were a third of its memory.
   */
  cacheMb?: number
  /**
   * How long a write waits for another connection's write to finish before it fails as "the
   * project is busy" (SQLite sleeps in the calling thread meanwhile). 5 s by default.
   */
  lockWaitMs?: number
}

let defaultNativeBinding: string | undefined

/** Electron's main process points every connection at the addon built for Electron's ABI. */
export function setDefaultNativeBinding(path: string | undefined): void {
  defaultNativeBinding = path
}

export function getDefaultNativeBinding(): string | undefined {
  return defaultNativeBinding
}

export function openProject(path: string, options: OpenOptions = {}): Db {
  const nativeBinding = options.nativeBinding ?? defaultNativeBinding
  let db: Db
  try {
    db = new Database(path, {
      fileMustExist: !options.create,
      readonly: options.readonly ?? false,
      ...(nativeBinding ? { nativeBinding } : {}),
    })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new UserError({
      type: 'not-found',
      code: 'cannot-open',
      message:
        !options.create && !existsSync(path)
          ? `${path}: no such project file.`
          : `${path}: the project cannot be opened (${reason}).`,
      file: path,
    })
  }
  try {
    if (!options.readonly) refuseReadOnly(path)
    configure(db, options)
    if (!options.readonly) migrate(db, path)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/**
 * A project opened for writing must be writable, and so must its folder (SQLite keeps its write
 * log beside it): say so naming the path, before SQLite fails with "attempt to write a readonly
 * database" at the first write.
 */
function refuseReadOnly(path: string): void {
  if (path === ':memory:' || path === '') return
  for (const target of [path, dirname(resolve(path))]) {
    try {
      accessSync(target, constants.W_OK)
    } catch {
      throw new UserError({
        type: 'conflict',
        code: 'project-read-only',
        message: `${path}: the project cannot be written (${target === path ? 'the file' : 'its folder'} is read-only). Copy it somewhere writable or change its permissions.`,
        file: path,
      })
    }
  }
}

/** The first read of a file that is not a SQLite database fails; say so in the user's words. */
function readHeader(db: Db): number {
  try {
    return db.pragma('application_id', { simple: true }) as number
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
      throw new UserError({
        type: 'input',
        code: 'not-a-project',
        message: `${db.name} is not a Winnow project (it is not a SQLite database).`,
        file: db.name,
      })
    }
    throw error
  }
}

function configure(db: Db, options: OpenOptions): void {
  const readonly = options.readonly ?? false
  const appId = readHeader(db)
  const version = db.pragma('user_version', { simple: true }) as number
  const tables = db.prepare('SELECT count(*) AS n FROM sqlite_schema').pluck().get() as number
  if (appId !== APPLICATION_ID && (appId !== 0 || version !== 0 || tables > 0)) {
    throw new UserError({
      type: 'input',
      code: 'not-a-project',
      message: `${db.name} is a SQLite database but not a Winnow project.`,
      file: db.name,
    })
  }
  db.pragma('foreign_keys = ON')
  db.pragma(`busy_timeout = ${Math.round(options.lockWaitMs ?? 5000)}`)
  if (!readonly) {
    // WAL keeps readers (the grid) going while a job writes, and survives kills without corruption.
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
  }
  db.pragma(`temp_store = ${TempStore.memory}`)
  db.pragma(`cache_size = ${-Math.round((options.cacheMb ?? 64) * 1024)}`)
  db.pragma(`mmap_size = ${(options.memoryMap ?? true) ? 268435456 : 0}`)
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>()

/** Connection settings a bulk write changes for its duration (numbers only, names fixed). */
export type TemporaryPragmas = Partial<
  Record<'foreign_keys' | 'wal_autocheckpoint' | 'cache_size' | 'temp_store' | 'threads', number>
>

/** `temp_store` values: SQLite's temporary files on disk, or in its in-memory journal. */
export const TempStore = { file: 1, memory: 2 } as const

/**
 * Runs `write` with these pragmas set on the connection and puts back what they were however it
 * ends. Two do not change inside a transaction: `foreign_keys` (the checks stay as they were) and
 * `temp_store` once the connection holds temporary tables (SQLite refuses), so set those around
 * the transaction. Changing `temp_store` drops the connection's temporary tables.
 */
export function withPragmas<T>(db: Db, settings: TemporaryPragmas, write: () => T): T {
  const names = Object.keys(settings) as (keyof TemporaryPragmas)[]
  const before = names.map((name) => [name, db.pragma(name, { simple: true }) as number] as const)
  for (const name of names) db.pragma(`${name} = ${Number(settings[name])}`)
  try {
    return write()
  } finally {
    for (const [name, value] of before.reverse()) db.pragma(`${name} = ${value}`)
  }
}

/**
 * A prepared statement for a fragment's text, cached per connection. Plucking statements are
 * cached apart because `pluck()` changes the statement itself.
 */
function prepare(
  db: Db,
  fragment: SqlFragment,
  mode: 'rows' | 'pluck' = 'rows',
): Database.Statement {
  let cache = statementCache.get(db)
  if (!cache) {
    cache = new Map()
    statementCache.set(db, cache)
  }
  const key = mode === 'pluck' ? `pluck:${fragment.text}` : fragment.text
  let statement = cache.get(key)
  if (!statement) {
    statement = db.prepare(fragment.text)
    if (mode === 'pluck') statement.pluck()
    cache.set(key, statement)
  }
  return statement
}

export function all<T>(db: Db, fragment: SqlFragment): T[] {
  return prepare(db, fragment).all(...fragment.values) as T[]
}

export function get<T>(db: Db, fragment: SqlFragment): T | undefined {
  return prepare(db, fragment).get(...fragment.values) as T | undefined
}

export function pluck<T>(db: Db, fragment: SqlFragment): T | undefined {
  return prepare(db, fragment, 'pluck').get(...fragment.values) as T | undefined
}

export function pluckAll<T>(db: Db, fragment: SqlFragment): T[] {
  return prepare(db, fragment, 'pluck').all(...fragment.values) as T[]
}

export function run(db: Db, fragment: SqlFragment): Database.RunResult {
  return prepare(db, fragment).run(...fragment.values)
}
