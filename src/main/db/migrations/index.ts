import { UserError } from '../../../shared/contract/errors'
import { collectionSchemas } from '../../collections/schemas'
import type { Db, Migration } from '../types'
import m001 from './001-core'
import m002 from './002-ratings'
import m003 from './003-mturk'
import m004 from './004-review'
import m005 from './005-narrow-rating-index'
import m006 from './006-date-index-by-id'
import m008 from './008-release'
import m009 from './009-pull-runner'
import m010 from './010-triage'
import m012 from './012-policies'
import m015 from './015-change-entries'
import m017 from './017-annotation-counts'
import m018 from './018-submission-counts'
import m019 from './019-added-annotations'
import m020 from './020-withdrawn-change-sets'
import m022 from './022-mturk-change-sets'
import m023 from './023-grown-rows'

/** 'WNNW' — marks a SQLite file as a Winnow project; the first migration stamps it. */
export const APPLICATION_ID = 0x574e4e57

/**
 * The project file's one sequence of migrations: the core's and each collection's
 * (`collections/<kind>/schema.ts`), by number. A number is taken once, by the core or by one
 * collection, and never reused, so files written by any version open in every later one.
 */
export const migrations: readonly Migration[] = inSequence([
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m008,
  m009,
  m010,
  m012,
  m015,
  m017,
  m018,
  m019,
  m020,
  m022,
  m023,
  ...collectionSchemas.flatMap((c) => c.migrations),
])

/** The migrations by number, checked to be 1, 2, 3 … with none missing or taken twice. */
function inSequence(all: Migration[]): Migration[] {
  const sorted = all.sort((a, b) => a.version - b.version)
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration ${m.version} (${m.name}) is out of sequence: expected ${i + 1}`)
    }
  })
  return sorted
}

export const LATEST_VERSION = migrations.length

/**
 * Brings a project file up to the latest schema: every pending migration in one transaction, the
 * version in `PRAGMA user_version`. A file written by a newer Winnow is refused, never touched.
 * The version that decides what to run is read inside the write transaction: another process may
 * be migrating the same file, and once it commits there is nothing left to do.
 */
export function migrate(db: Db, path: string, target = LATEST_VERSION): void {
  if (checkedVersion(db, path) >= target) return
  // A migration may rebuild a table others refer to (SQLite's twelve steps), which needs foreign
  // keys off; the setting only changes outside a transaction. They are checked before commit.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number
  db.pragma('foreign_keys = OFF')
  try {
    db.transaction(() => {
      const current = checkedVersion(db, path)
      if (current >= target) return
      if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`)
      const before = foreignKeys ? brokenReferences(db) : null
      for (const migration of migrations) {
        if (migration.version <= current || migration.version > target) continue
        migration.up(db)
      }
      if (before) assertNoneBroken(db, before)
      db.pragma(`user_version = ${target}`)
    }).immediate()
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys}`)
  }
}

interface BrokenReference {
  table: string
  rowid: number | null
  parent: string
  fkid: number
}

function brokenReferences(db: Db): Set<string> {
  const rows = db.pragma('foreign_key_check') as BrokenReference[]
  return new Set(rows.map((r) => `${r.table} row ${r.rowid ?? '?'} → ${r.parent} (${r.fkid})`))
}

/** Only references a migration broke fail it: a project that already had some still opens. */
function assertNoneBroken(db: Db, before: ReadonlySet<string>): void {
  const added = [...brokenReferences(db)].filter((r) => !before.has(r))
  if (added.length > 0) {
    throw new Error(`a migration broke ${added.length} references (first: ${added[0] ?? ''})`)
  }
}

function checkedVersion(db: Db, path: string): number {
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > LATEST_VERSION) {
    throw new UserError({
      type: 'conflict',
      code: 'project-too-new',
      message: `${path} was written by a newer Winnow (schema ${current}; this version knows ${LATEST_VERSION}). Update Winnow to open it.`,
      file: path,
    })
  }
  return current
}
