import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TempStore } from '../../src/main/db/connection'
import { openForPolicy } from '../../src/main/cli/commands/policy'
import { useTempDir } from '../helpers/tmp'
import { newProject } from '../ratings/helpers'

/**
 * A policy run keeps a row per annotation it moves in a temporary table: at ten million
 * annotations that table must live in a temporary file, not in the process's memory.
 */
describe('the connection of a policy run', () => {
  const tempDir = useTempDir()

  it('keeps its temporary tables on disk and maps no pages of the project', () => {
    const dir = tempDir()
    newProject(dir).close()
    const db = openForPolicy(join(dir, 'p.winnow'))
    try {
      expect(db.pragma('temp_store', { simple: true })).toBe(TempStore.file)
      expect(db.pragma('mmap_size', { simple: true })).toBe(0)
    } finally {
      db.close()
    }
  })
})
