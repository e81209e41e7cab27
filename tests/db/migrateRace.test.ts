import { spawn } from 'node:child_process'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { APPLICATION_ID, openProject } from '../../src/main/db/connection'
import { LATEST_VERSION, migrations } from '../../src/main/db/migrations'
import { useTempDir } from '../helpers/tmp'

const root = join(import.meta.dirname, '..', '..')

/** A project file as Winnow wrote it at schema 2, before the MTurk tables and columns. */
function olderProject(path: string): void {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma(`application_id = ${APPLICATION_ID}`)
  db.transaction(() => {
    for (const migration of migrations.slice(0, 2)) migration.up(db)
    db.pragma('user_version = 2')
  }).immediate()
  db.prepare("INSERT INTO workers (external_id) VALUES ('A1')").run()
  db.close()
}

function openInChild(path: string): { started: Promise<void>; result: Promise<string> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'tests/db/open-child.ts'), path],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  let out = ''
  let markStarted: () => void = () => undefined
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    if (out.includes('opening')) markStarted()
  })
  const result = new Promise<string>((resolve) =>
    child.once('exit', () => resolve(out.replace('opening\n', '').trim())),
  )
  return { started, result }
}

describe('two processes opening an older project at once', () => {
  const tempDir = useTempDir()

  it('both open it; the schema is migrated once', async () => {
    const path = join(tempDir(), 'old.winnow')
    olderProject(path)

    // Another writer holds the project while both processes start opening it, so both see the
    // older schema and then queue for the write lock.
    const holder = new Database(path)
    holder.exec('BEGIN IMMEDIATE')
    const first = openInChild(path)
    const second = openInChild(path)
    await Promise.all([first.started, second.started])
    await new Promise((resolve) => setTimeout(resolve, 500))
    holder.exec('COMMIT')
    holder.close()

    expect(await first.result).toBe('ok')
    expect(await second.result).toBe('ok')
    const db = openProject(path)
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(db.prepare('SELECT external_id FROM workers').pluck().all()).toEqual(['A1'])
    db.close()
  })
})
