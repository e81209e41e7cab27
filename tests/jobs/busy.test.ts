import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { Session } from '../../src/main/session'
import { useTempDir } from '../helpers/tmp'

describe('a change while another connection writes', () => {
  const tempDir = useTempDir()

  it('fails soon as "busy" in the app, where a wait would freeze the window; reads go on', async () => {
    const session = new Session('serve', () => undefined)
    const cli = new Session('cli', () => undefined)
    const path = join(tempDir(), 'p.winnow')
    try {
      session.open(path, { create: true })
      cli.open(path)
      // SQLite sleeps in the calling thread while it waits: the app's thread waits half a second at
      // most, the command line (no window) the usual five.
      expect(session.project().db.pragma('busy_timeout', { simple: true })).toBe(500)
      expect(cli.project().db.pragma('busy_timeout', { simple: true })).toBe(5000)

      // An import in another connection holds the project's write lock.
      const importer = new Database(path)
      importer.exec('BEGIN IMMEDIATE')
      try {
        const saved = await dispatch('review.saveView', { name: 'Mine', filter: {} }, { session })
        expect(saved).toMatchObject({ ok: false, error: { code: 'project-busy' } })
        const read = await dispatch('review.query', { filter: {}, limit: 10 }, { session })
        expect(read).toMatchObject({ ok: true, value: { total: 0 } })
      } finally {
        importer.exec('ROLLBACK')
        importer.close()
      }
      const again = await dispatch('review.saveView', { name: 'Mine', filter: {} }, { session })
      expect(again).toMatchObject({ ok: true })
    } finally {
      cli.close()
      session.close()
    }
  })
})
