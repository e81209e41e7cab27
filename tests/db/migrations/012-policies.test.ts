import { describe, expect, it } from 'vitest'
import { openProject } from '../../../src/main/db/connection'
import { policyRunByChangeSet } from '../../../src/main/db/queries/policies'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 012 (policy runs)', () => {
  const tempDir = useTempDir()

  it('keeps the project’s rows; a policy change set records the script it ran', () => {
    const project = projectAt(tempDir(), 11)
    writeGlucoseWork(project.db)
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (3, 'import', 'lead', 1700000012000, 'Imported exam.json');
      INSERT INTO crowdaq_exams (id, questions_per_attempt, passing_grade, attempts_allowed,
          time_limit_seconds, bands, change_set_id)
        VALUES ('ex1', 0, 0.5, 2, 600, '[]', 3);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 12)
    expectRowsKept(project.db, before)
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (4, 'policy', 'lead', 1700000013000, 'Policy cleanup: 1 annotation re-rated');
      INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)
        VALUES (33, -1, 1700000013000, 'lead', 'rushed', 4);
      INSERT INTO policy_runs (change_set_id, name, file_name, script, sha256, params, report)
        VALUES (4, 'cleanup', 'cleanup.js', 'export default () => []', 'ef56', '{}', '{"rules":[]}');
    `)
    expect(() =>
      project.db.exec(
        `INSERT INTO policy_runs (change_set_id, name, file_name, script, sha256, params, report)
         VALUES (9, 'x', 'x.js', '', '', '{}', '{}')`,
      ),
    ).toThrow(/FOREIGN KEY/)
    project.db.close()

    const db = openProject(project.path)
    expect(policyRunByChangeSet(db, 4)).toMatchObject({ name: 'cleanup', fileName: 'cleanup.js' })
    expect(policyRunByChangeSet(db, 2)).toBeUndefined()
    db.close()
  })
})
