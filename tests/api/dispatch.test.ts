import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { callNames } from '../../src/shared/contract'
import type { RatingLevel } from '../../src/shared/contract/ratings'
import { dispatch } from '../../src/main/api/dispatch'
import { openProject } from '../../src/main/db/connection'
import { handlers } from '../../src/main/api/index'
import { Session } from '../../src/main/session'
import { useTempDir } from '../helpers/tmp'

describe('dispatch', () => {
  const tempDir = useTempDir()
  const session = () => new Session('cli', () => undefined)

  it('has exactly one handler per contract call', () => {
    expect(Object.keys(handlers).sort()).toEqual([...callNames].sort())
  })

  it('refuses names outside the contract', async () => {
    const outcome = await dispatch('fs.readFile', { path: '/etc/passwd' }, { session: session() })
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown-call' } })
  })

  it('validates arguments and names the field', async () => {
    const outcome = await dispatch('project.open', { path: 42 }, { session: session() })
    expect(outcome).toMatchObject({ ok: false, error: { type: 'invalid-argument', field: 'path' } })
  })

  it('turns expected failures into values the page can show', async () => {
    const outcome = await dispatch('project.stats', {}, { session: session() })
    expect(outcome).toMatchObject({ ok: false, error: { type: 'not-found', code: 'no-project' } })
  })

  it('creates, opens and counts a project', async () => {
    const s = session()
    const path = join(tempDir(), 'new')
    const created = await dispatch('project.create', { path }, { session: s })
    expect(created).toMatchObject({ ok: true, value: { name: 'new', path: `${path}.winnow` } })
    const stats = await dispatch('project.stats', {}, { session: s })
    expect(stats).toMatchObject({ ok: true, value: { submissions: 0, annotations: 0 } })
    const again = await dispatch('project.create', { path }, { session: s })
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'exists',
        message: `${path}.winnow: this file exists already; open it instead.`,
      },
    })
    s.close()
  })

  it('refuses a relative path: it would be read from wherever the server started', async () => {
    const s = session()
    for (const call of ['project.create', 'project.open'] as const) {
      const outcome = await dispatch(call, { path: 'glucose' }, { session: s })
      expect(outcome).toMatchObject({
        ok: false,
        error: { type: 'invalid-argument', code: 'relative-path', field: 'path' },
      })
    }
    expect(existsSync(join(process.cwd(), 'glucose.winnow'))).toBe(false)
    s.close()
  })

  it('leaves WAL checkpoints of the app to a timer, and of the command line to SQLite', async () => {
    const app = new Session('serve', () => undefined)
    const cliSession = session()
    const dir = tempDir()
    await dispatch('project.create', { path: join(dir, 'a') }, { session: app })
    await dispatch('project.create', { path: join(dir, 'b') }, { session: cliSession })
    expect(app.project().db.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    expect(cliSession.project().db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000)
    app.close()
    cliSession.close()
  })

  it('says the project is busy when another program holds its write lock, and changes nothing', async () => {
    const s = session()
    const path = join(tempDir(), 'p')
    await dispatch('project.create', { path }, { session: s })
    const db = s.project().db
    db.pragma('busy_timeout = 50')
    const before = await dispatch('ratings.scale', {}, { session: s })
    if (!before.ok) throw new Error(before.error.message)
    const scale = before.value as RatingLevel[]
    const other = openProject(`${path}.winnow`)
    other.exec('BEGIN IMMEDIATE')
    try {
      const outcome = await dispatch('ratings.setScale', { scale: scale.slice(1) }, { session: s })
      expect(outcome).toMatchObject({
        ok: false,
        error: { type: 'conflict', code: 'project-busy', message: /another job or program/ },
      })
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    expect(await dispatch('ratings.scale', {}, { session: s })).toEqual(before)
    s.close()
  })

  it('refuses files the user did not choose', async () => {
    const s = session()
    await dispatch('project.create', { path: join(tempDir(), 'p') }, { session: s })
    const outcome = await dispatch(
      'import.start',
      { files: [{ ref: { kind: 'path', path: '/etc/passwd' } }] },
      { session: s },
    )
    expect(outcome).toMatchObject({ ok: false, error: { code: 'file-not-granted' } })
    s.close()
  })
})
