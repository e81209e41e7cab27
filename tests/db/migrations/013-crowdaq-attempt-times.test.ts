import { describe, expect, it } from 'vitest'
import { buildExamReport } from '../../../src/main/collections/crowdaq/report'
import { openProject } from '../../../src/main/db/connection'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 013 (CROWDAQ attempt times)', () => {
  const tempDir = useTempDir()

  it('keeps every attempt, untimed: the report says the time limit was not checked for them', () => {
    const project = projectAt(tempDir(), 12)
    writeGlucoseWork(project.db)
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (3, 'import', 'lead', 1700000012000, 'Imported exam.json');
      INSERT INTO crowdaq_exams (id, questions_per_attempt, passing_grade, attempts_allowed,
          time_limit_seconds, bands, change_set_id)
        VALUES ('ex1', 0, 0.5, 2, 600, '[{"name":"pass","minGrade":0.5}]', 3);
      INSERT INTO crowdaq_questions (exam_id, question_id, position, answer, spec) VALUES
        ('ex1', 'q1', 0, 'A', '{"question_id":"q1","question":"Wet?","options":{"A":"yes","B":"no"},"answer":"A"}'),
        ('ex1', 'q2', 1, 'B', '{"question_id":"q2","question":"Dry?","options":{"A":"yes","B":"no"},"answer":"B"}');
      INSERT INTO crowdaq_exam_attempts (id, exam_id, worker_id, source, source_key, completed_at,
          source_order, change_set_id)
        VALUES (1, 'ex1', 1, 'crowdaq', 'ex1|W1|1', 1700000000, 1, 3),
               (2, 'ex1', 2, 'csv', 'ex1|W2|1', NULL, 1, 3);
      INSERT INTO crowdaq_attempt_answers (attempt_id, question_id, answer) VALUES
        (1, 'q1', 'A'), (1, 'q2', 'B'), (2, 'q1', 'B'), (2, 'q2', NULL);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 13)
    expectRowsKept(project.db, before)
    expect(
      project.db
        .prepare('SELECT id, started_at, deadline FROM crowdaq_exam_attempts ORDER BY id')
        .raw()
        .all(),
    ).toEqual([
      [1, null, null],
      [2, null, null],
    ])
    project.db.close()

    const db = openProject(project.path)
    const report = buildExamReport(db, 'ex1')
    expect(report).toMatchObject({ attempts: 2, untimed: 2, workers: 2 })
    expect(report.workerRows.map((r) => [r.workerId, r.grade, r.band, r.flags])).toEqual([
      ['W1', 1, 'pass', [[]]],
      ['W2', 0, null, [[]]],
    ])
    db.close()
  })
})
