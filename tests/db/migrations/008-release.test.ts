import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 008 (release)', () => {
  const tempDir = useTempDir()

  it('keeps the project’s rows and gives its workers pseudonyms of their own', () => {
    const project = projectAt(tempDir(), 7)
    writeGlucoseWork(project.db)
    const before = rowsOf(project.db)

    migrateTo(project, 8)
    expectRowsKept(project.db, before)
    project.db.exec(`
      INSERT INTO worker_pseudonyms (worker_id, pseudonym) VALUES (1, 101), (2, 102);
      INSERT INTO exports (created_at, author, folder, manifest)
        VALUES (1700000003000, 'lead', 'release-1', '{"files":[]}');
    `)
    // The pseudonyms belong to the workers already there, one each.
    expect(() =>
      project.db.exec('INSERT INTO worker_pseudonyms (worker_id, pseudonym) VALUES (2, 101)'),
    ).toThrow(/UNIQUE|PRIMARY KEY/)
    expect(() =>
      project.db.exec('INSERT INTO worker_pseudonyms (worker_id, pseudonym) VALUES (9, 109)'),
    ).toThrow(/FOREIGN KEY/)
    expect(
      project.db
        .prepare(
          `SELECT w.external_id, p.pseudonym FROM worker_pseudonyms p
           JOIN workers w ON w.id = p.worker_id ORDER BY p.pseudonym`,
        )
        .raw()
        .all(),
    ).toEqual([
      ['W1', 101],
      ['W2', 102],
    ])
    project.db.close()
  })
})
