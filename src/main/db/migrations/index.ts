import { UserError } from '../../../shared/contract/errors'
import type { Db } from '../connection'
import { APPLICATION_ID } from '../connection'
import m001 from './001-core'
import m002 from './002-ratings'
import m003 from './003-mturk'
import m004 from './004-review'
import m005 from './005-narrow-rating-index'
import m006 from './006-date-index-by-id'
import m007 from './007-policies'

export interface Migration {
  version: number
  name: string
  up(db: Db): void
}

export const migrations: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m007]

export const LATEST_VERSION = migrations.length

/**
 * Brings a project file up to the latest schema: every pending migration in one transaction, the
 * version in `PRAGMA user_version`. A file written by a newer Winnow is refused, never touched.
 */
export function migrate(db: Db, path: string, target = LATEST_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number
  if (current > LATEST_VERSION) {
    throw new UserError({
      type: 'conflict',
      code: 'project-too-new',
      message: `${path} was written by a newer Winnow (schema ${current}; this version knows ${LATEST_VERSION}). Update Winnow to open it.`,
      file: path,
    })
  }
  if (current >= target) return
  db.transaction(() => {
    if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`)
    for (const migration of migrations) {
      if (migration.version <= current || migration.version > target) continue
      migration.up(db)
    }
    db.pragma(`user_version = ${target}`)
  }).immediate()
}
