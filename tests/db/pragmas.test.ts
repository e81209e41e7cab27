import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject, withPragmas } from '../../src/main/db/connection'
import { useTempDir } from '../helpers/tmp'

describe('withPragmas', () => {
  const tempDir = useTempDir()

  it('sets the pragmas for the work and puts back what they were, also when it throws', () => {
    const db = openProject(join(tempDir(), 'p.winnow'), { create: true })
    const read = (name: string) => db.pragma(name, { simple: true }) as number
    const before = { cache: read('cache_size'), checkpoint: read('wal_autocheckpoint') }
    const inside = withPragmas(
      db,
      { cache_size: -2048, wal_autocheckpoint: 0, foreign_keys: 0 },
      () => ({
        cache: read('cache_size'),
        checkpoint: read('wal_autocheckpoint'),
        keys: read('foreign_keys'),
      }),
    )
    expect(inside).toEqual({ cache: -2048, checkpoint: 0, keys: 0 })
    expect(() =>
      withPragmas(db, { cache_size: -1024, foreign_keys: 0 }, () => {
        throw new Error('failed halfway')
      }),
    ).toThrow('failed halfway')
    expect({ cache: read('cache_size'), checkpoint: read('wal_autocheckpoint') }).toEqual(before)
    expect(read('foreign_keys')).toBe(1)
    db.close()
  })
})
