import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 019 (annotations added to earlier submissions)', () => {
  const tempDir = useTempDir()

  it('keeps every row, and starts with no annotation counted as added by a later change set', () => {
    const project = projectAt(tempDir(), 18)
    writeGlucoseWork(project.db)
    const before = rowsOf(project.db)

    migrateTo(project, 19)
    expectRowsKept(project.db, before)
    // Annotations written before it name no change set of their own: the submission's holds them.
    expect(project.db.prepare('SELECT count(*) FROM added_annotations').pluck().get()).toBe(0)
    project.db.close()
  })
})
