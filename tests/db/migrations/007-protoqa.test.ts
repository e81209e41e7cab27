import { describe, expect, it } from 'vitest'
import { openProject } from '../../../src/main/db/connection'
import { heldCollections } from '../../../src/main/db/queries/collections'
import { projectStats } from '../../../src/main/db/queries/stats'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 007 (ProtoQA)', () => {
  const tempDir = useTempDir()

  it('keeps a GLUCOSE project’s rows, and its workers answer ProtoQA questions', () => {
    const project = projectAt(tempDir(), 6)
    writeGlucoseWork(project.db)
    const before = rowsOf(project.db)

    migrateTo(project, 7)
    expectRowsKept(project.db, before)
    // A GLUCOSE worker gives a ProtoQA answer: one worker table for both collections.
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (3, 'import', 'lead', 1700000002000, 'Imported answers.jsonl');
      INSERT INTO source_files (id, name, path, sha256, bytes, format, imported_at, change_set_id,
          records, submissions_added, annotations_added, warnings)
        VALUES (2, 'answers.jsonl', 'answers.jsonl', 'cd34', 64, 'protoqa-answers', 1700000002000, 3, 1, 0, 0, '[]');
      INSERT INTO protoqa_questions (id, external_id, source, original, normalized, change_set_id, source_file_id)
        VALUES (1, 'q1', 'answers.jsonl', 'Name something wet.', 'name something wet', 3, 2);
      INSERT INTO protoqa_answers (id, question_id, text, count) VALUES (1, 1, 'rain', 1);
      INSERT INTO protoqa_responses (question_id, answer_id, worker_id, given, source_file_id, line)
        VALUES (1, 1, 2, 'Rain', 2, 1);
    `)
    const given = project.db
      .prepare(
        `SELECT w.external_id AS worker, r.given FROM protoqa_responses r
         JOIN workers w ON w.id = r.worker_id`,
      )
      .all()
    expect(given).toEqual([{ worker: 'W2', given: 'Rain' }])
    project.db.close()

    const db = openProject(project.path)
    expect(heldCollections(db)).toEqual(['protoqa'])
    expect(projectStats(db)).toMatchObject({ submissions: 2, annotations: 4, workers: 2 })
    db.close()
  })
})
