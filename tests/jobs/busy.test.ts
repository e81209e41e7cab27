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

      // When a job of this window holds the project, the message names it.
      let finish = (): void => undefined
      const held = new Database(path)
      session.jobs.start({
        kind: 'import',
        title: 'Importing day-2.csv',
        unit: 'bytes',
        run: () => {
          held.exec('BEGIN IMMEDIATE')
          return new Promise<void>((resolve) => {
            finish = resolve
          })
        },
      })
      await new Promise((resolve) => setTimeout(resolve, 10))
      try {
        const during = await dispatch('review.deleteView', { name: 'Mine' }, { session })
        expect(during).toMatchObject({
          ok: false,
          error: {
            code: 'project-busy',
            message: expect.stringMatching(
              /^Importing day-2\.csv is writing to the project\. Nothing was changed/,
            ) as unknown,
          },
        })
      } finally {
        held.exec('ROLLBACK')
        held.close()
        finish()
        await session.jobs.idle()
      }
    } finally {
      cli.close()
      session.close()
    }
  })
})
