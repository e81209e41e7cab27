import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TempStore } from '../../src/main/db/connection'
import { openForPolicy } from '../../src/main/cli/commands/policy'
import { useTempDir } from '../helpers/tmp'
import { newProject } from '../ratings/helpers'

/**
 * A policy run keeps a row per annotation it moves in a temporary table: at ten million
 * annotations that table must live in a temporary file, not in the process's memory. The run reads
 * most of the project once, so its page cache is small (64 MB of it was a fifth of the run's peak).
 */
describe('the connection of a policy run', () => {
  const tempDir = useTempDir()

  it('keeps its temporary tables on disk, maps no pages of the project and caches few', () => {
    const dir = tempDir()
    newProject(dir).close()
    const db = openForPolicy(join(dir, 'p.winnow'))
    try {
      expect(db.pragma('temp_store', { simple: true })).toBe(TempStore.file)
      expect(db.pragma('mmap_size', { simple: true })).toBe(0)
      // Negative: KiB rather than pages.
      expect(db.pragma('cache_size', { simple: true })).toBe(-16 * 1024)
    } finally {
      db.close()
    }
  })
})
