import { describe, expect, it } from 'vitest'
import { openProject } from '../../../src/main/db/connection'
import { heldCollections } from '../../../src/main/db/queries/collections'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 014 (HALIE)', () => {
  const tempDir = useTempDir()

  it('keeps the project’s rows; a HALIE session of one of its workers joins them, its rows kept cell for cell', () => {
    const project = projectAt(tempDir(), 13)
    writeGlucoseWork(project.db)
    project.db.exec(`
      INSERT INTO crowdaq_exams (id, questions_per_attempt, passing_grade, attempts_allowed,
          time_limit_seconds, bands, change_set_id)
        VALUES ('ex1', 0, 0.5, 2, 600, '[]', 1);
      INSERT INTO crowdaq_exam_attempts (id, exam_id, worker_id, source, source_key, completed_at,
          source_order, change_set_id, started_at, deadline)
        VALUES (1, 'ex1', 1, 'crowdaq', 'ex1|W1|1', 1700000000, 1, 1, 1699999000, 1699999600);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 14)
    expectRowsKept(project.db, before)
    const halieTables = project.db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'halie_%'`)
      .pluck()
      .all() as string[]
    expect(halieTables.sort()).toEqual([
      'halie_log_events',
      'halie_logs',
      'halie_rows',
      'halie_scores',
      'halie_sessions',
      'halie_tables',
    ])
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (3, 'import', 'lead', 1700000014000, 'Imported metaphor');
      INSERT INTO source_files (id, name, path, sha256, bytes, format, year, imported_at,
          change_set_id, records, submissions_added, annotations_added, warnings)
        VALUES (2, 'event_blocks.csv', 'metaphor/event_blocks.csv', 'cd34', 64, 'halie', NULL,
          1700000014000, 3, 1, 0, 0, '[]');
      INSERT INTO halie_sessions (id, task, external_id, worker_id, blocks, change_set_id)
        VALUES (1, 'metaphor', 'sess-1', 1, 1, 3);
      INSERT INTO halie_tables (id, task, kind, header, source_file_id)
        VALUES (1, 'metaphor', 'event_blocks', '["session_id","text"]', 2);
      INSERT INTO halie_rows (id, table_id, line, session_id, cells)
        VALUES (1, 1, 2, 1, '["sess-1","Love is a \\"rose\\", 1"]');
    `)
    expect(project.db.pragma('foreign_key_check')).toEqual([])
    expect(() =>
      project.db.exec(`INSERT INTO halie_sessions (task, external_id, worker_id, change_set_id)
        VALUES ('metaphor', 'sess-2', 99, 3)`),
    ).toThrow(/FOREIGN KEY/)
    // A session's worker is a project worker: W1's GLUCOSE work and HALIE session are one worker's.
    expect(
      project.db
        .prepare(
          `SELECT w.external_id, count(DISTINCT a.id), count(DISTINCT h.id)
             FROM workers w JOIN annotations a ON a.worker_id = w.id
             JOIN halie_sessions h ON h.worker_id = w.id GROUP BY w.id`,
        )
        .raw()
        .all(),
    ).toEqual([['W1', 2, 1]])
    project.db.close()

    const db = openProject(project.path)
    expect(heldCollections(db)).toEqual(['crowdaq', 'halie'])
    expect(db.prepare('SELECT cells FROM halie_rows').pluck().get()).toBe(
      '["sess-1","Love is a \\"rose\\", 1"]',
    )
    db.close()
  })
})
