import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { errorInfo } from '../../src/main/jobs/errorInfo'
import { openProject } from '../../src/main/db/connection'
import { importFiles } from '../../src/main/importers/run'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'

describe('messages that name the path and the cause', () => {
  const tempDir = useTempDir()

  it('a folder given as a file', async () => {
    const dir = tempDir()
    const folder = join(dir, 'batch')
    mkdirSync(folder)
    const out = await cli('import', folder, '--db', join(dir, 'p.winnow'))
    expect(out.code).toBe(1)
    expect(out.stderr).toBe(
      `winnow import: ${folder}: it is a folder, not a file; name the files in it; nothing was imported.\n`,
    )
    const db = openProject(join(dir, 'q.winnow'), { create: true })
    expect(() => importFiles(db, [{ path: folder }])).toThrowError(
      'batch: it is a folder, not a file; name the files in it',
    )
    db.close()
  })

  it('a symbolic link that leads back to itself', async () => {
    const dir = tempDir()
    const loop = join(dir, 'loop.csv')
    symlinkSync(loop, loop)
    const out = await cli('import', loop, '--db', join(dir, 'p.winnow'))
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(`${loop}: it is a symbolic link that leads back to itself`)
    const db = openProject(join(dir, 'q.winnow'), { create: true })
    expect(() => importFiles(db, [{ path: loop }])).toThrowError(
      'loop.csv: it is a symbolic link that leads back to itself',
    )
    db.close()
  })

  it('a project that cannot be written', () => {
    const path = join(tempDir(), 'p.winnow')
    openProject(path, { create: true }).close()
    const db = openProject(path, { readonly: true })
    try {
      db.prepare("INSERT INTO workers (external_id) VALUES ('A1')").run()
      expect.unreachable()
    } catch (error) {
      expect(errorInfo(error)).toMatchObject({
        type: 'conflict',
        code: 'project-read-only',
        message: expect.stringMatching(
          /^The project file is read-only.*Nothing was changed/,
        ) as unknown,
      })
    } finally {
      db.close()
    }
  })

  it('a port out of range is a usage error', async () => {
    const out = await cli('serve', '--db', join(tempDir(), 'p.winnow'), '--port', '99999')
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/^winnow serve: --port must be from 0 to 65535, got 99999\n/)
  })
})
