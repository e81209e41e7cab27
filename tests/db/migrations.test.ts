import Database from 'better-sqlite3'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UserError } from '../../src/shared/contract/errors'
import { APPLICATION_ID, openProject } from '../../src/main/db/connection'
import { LATEST_VERSION, migrations } from '../../src/main/db/migrations'
import { useTempDir } from '../helpers/tmp'

describe('project file', () => {
  const tempDir = useTempDir()

  it('creates a project at the latest schema, marked as Winnow, in WAL mode', () => {
    const path = join(tempDir(), 'p.winnow')
    const db = openProject(path, { create: true })
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION)
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('mmap_size', { simple: true })).toBeGreaterThan(0)
    db.close()
  })

  it('maps the file into memory, except for a connection that imports', () => {
    const path = join(tempDir(), 'p.winnow')
    openProject(path, { create: true }).close()
    const importing = openProject(path, { memoryMap: false })
    expect(importing.pragma('mmap_size', { simple: true })).toBe(0)
    importing.close()
  })

  it('numbers migrations 1..N without gaps', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1))
  })

  it('refuses a file written by a newer Winnow and leaves it untouched', () => {
    const path = join(tempDir(), 'new.winnow')
    openProject(path, { create: true }).close()
    const raw = new Database(path)
    raw.pragma(`user_version = ${LATEST_VERSION + 5}`)
    raw.close()
    expect(() => openProject(path)).toThrowError(/newer Winnow/)
    const check = new Database(path)
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_VERSION + 5)
    check.close()
  })

  it('refuses a SQLite file that is not a project', () => {
    const path = join(tempDir(), 'other.db')
    const raw = new Database(path)
    raw.exec('CREATE TABLE t (x)')
    raw.close()
    try {
      openProject(path)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(UserError)
      expect((error as UserError).info.code).toBe('not-a-project')
    }
  })

  it('refuses a file that is not a database, and leaves it as it was', () => {
    const path = join(tempDir(), 'batch.csv')
    const text = 'a,b,c\n1,2,3\n'.repeat(200)
    writeFileSync(path, text)
    expect(() => openProject(path)).toThrowError(
      expect.objectContaining({
        info: expect.objectContaining({
          code: 'not-a-project',
          message: `${path} is not a Winnow project (it is not a SQLite database).`,
        }) as unknown,
      }) as Error,
    )
    expect(readFileSync(path, 'utf8')).toBe(text)
    expect(existsSync(`${path}-wal`)).toBe(false)
  })

  it('refuses to create a project where none exists unless asked', () => {
    const path = join(tempDir(), 'missing.winnow')
    expect(() => openProject(path)).toThrowError(`${path}: no such project file.`)
    expect(existsSync(path)).toBe(false)
  })

  it('migrates an older project in one step, keeping its rows', () => {
    const path = join(tempDir(), 'old.winnow')
    const db = openProject(path, { create: true })
    db.prepare("INSERT INTO workers (external_id) VALUES ('A1')").run()
    db.close()
    const again = openProject(path)
    expect(again.prepare('SELECT external_id FROM workers').pluck().all()).toEqual(['A1'])
    again.close()
  })
})
