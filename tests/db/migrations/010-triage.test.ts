import { describe, expect, it } from 'vitest'
import { openProject } from '../../../src/main/db/connection'
import { auditResults } from '../../../src/main/db/queries/audits'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 010 (triage and audits)', () => {
  const tempDir = useTempDir()

  it('keeps the project’s rows; its submissions can be triaged and its annotations audited', () => {
    const project = projectAt(tempDir(), 9)
    writeGlucoseWork(project.db)
    const before = rowsOf(project.db)

    migrateTo(project, 10)
    expectRowsKept(project.db, before)
    project.db.exec(`
      INSERT INTO triage_queues (id, from_day, to_day, share, seed, author, created_at)
        VALUES (1, '2019-09-17', '2019-09-18', 0.5, 7, 'lead', 1700000007000);
      INSERT INTO triage_items (queue_id, position, submission_id) VALUES (1, 1, 1), (1, 2, 2);
      INSERT INTO triage_marks (queue_id, annotation_id, mark, marked_at)
        VALUES (1, 17, 'good', 1700000008000);
      INSERT INTO audits (id, name, filter, seed, author, created_at)
        VALUES (1, 'dimension 1', '{"dimensions":[1]}', 3, 'lead', 1700000009000);
      INSERT INTO audit_items (audit_id, position, annotation_id, verdict, judged_at)
        VALUES (1, 1, 17, 'yes', 1700000010000), (1, 2, 33, 'no', 1700000011000);
    `)
    expect(() =>
      project.db.exec(
        `INSERT INTO triage_marks (queue_id, annotation_id, mark, marked_at) VALUES (1, 99, 'bad', 1)`,
      ),
    ).toThrow(/FOREIGN KEY/)
    project.db.close()

    const db = openProject(project.path)
    expect(auditResults(db)).toMatchObject([
      { id: 1, name: 'dimension 1', sample: 2, judged: 2, yes: 1, no: 1, precision: 0.5 },
    ])
    db.close()
  })
})
