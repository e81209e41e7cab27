import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 020 (withdrawn change sets)', () => {
  const tempDir = useTempDir()

  it('keeps every row, and withdraws no change set', () => {
    const project = projectAt(tempDir(), 19)
    writeGlucoseWork(project.db)
    const before = rowsOf(project.db)

    migrateTo(project, 20)
    expectRowsKept(project.db, before)
    expect(project.db.prepare('SELECT count(*) FROM team_withdrawn').pluck().get()).toBe(0)
    project.db.close()
  })
})
