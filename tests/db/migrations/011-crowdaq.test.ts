import { describe, expect, it } from 'vitest'
import { openProject } from '../../../src/main/db/connection'
import { heldCollections } from '../../../src/main/db/queries/collections'
import { annotationsByRating } from '../../../src/main/collections/crowdaq/db/attempts'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 011 (CROWDAQ)', () => {
  const tempDir = useTempDir()

  it('keeps the project’s rows; an exam attempt by one of its workers reads their GLUCOSE work', () => {
    const project = projectAt(tempDir(), 10)
    writeGlucoseWork(project.db)
    project.db.exec(`
      INSERT INTO triage_queues (id, from_day, to_day, share, seed, author, created_at)
        VALUES (1, '2019-09-17', '2019-09-18', 0.5, 7, 'lead', 1700000007000);
      INSERT INTO triage_items (queue_id, position, submission_id) VALUES (1, 1, 1);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 11)
    expectRowsKept(project.db, before)
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (3, 'import', 'lead', 1700000012000, 'Imported exam.json');
      INSERT INTO crowdaq_exams (id, questions_per_attempt, passing_grade, attempts_allowed,
          time_limit_seconds, bands, change_set_id)
        VALUES ('ex1', 0, 0.5, 2, 600, '[]', 3);
      INSERT INTO crowdaq_questions (exam_id, question_id, position, answer, spec)
        VALUES ('ex1', 'q1', 0, 'A', '{"question_id":"q1","options":{"A":"yes","B":"no"}}');
      INSERT INTO crowdaq_exam_attempts (id, exam_id, worker_id, source, source_key, completed_at,
          source_order, change_set_id)
        VALUES (1, 'ex1', 1, 'crowdaq', 'ex1|W1|1', 1700000000, 1, 3);
      INSERT INTO crowdaq_attempt_answers (attempt_id, question_id, answer) VALUES (1, 'q1', 'A');
    `)
    project.db.close()

    const db = openProject(project.path)
    expect(heldCollections(db)).toEqual(['crowdaq'])
    // The exam taker's main-task work, by effective rating: W1's annotations rated 2 and 1.
    const quality = annotationsByRating(db, ['W1'])
    expect(
      [...(quality.get('W1') ?? [])].sort((a, b) => (a.rating ?? -9) - (b.rating ?? -9)),
    ).toEqual([
      { rating: 1, n: 1 },
      { rating: 2, n: 1 },
    ])
    db.close()
  })
})
