import { describe, expect, it } from 'vitest'
import { rateSessions } from '../../../src/main/collections/halie/ratings'
import { openProject } from '../../../src/main/db/connection'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 016 (HALIE ratings)', () => {
  const tempDir = useTempDir()

  it('keeps every change entry and HALIE row, unrated; a session starts at its log’s first event, else its metadata', () => {
    const project = projectAt(tempDir(), 15)
    writeGlucoseWork(project.db)
    project.db.exec(`
      INSERT INTO change_sets (id, kind, author, created_at, description)
        VALUES (3, 'import', 'lead', 1700000014000, 'Imported metaphor'),
               (4, 'manual', 'lee', 1700000015000, 'Settings');
      INSERT INTO change_entries (id, change_set_id, subject, key, value)
        VALUES (101, 4, 'setting', '"release.tierMap"', '[{"rating":2,"tier":1}]'),
               (102, 4, 'crowdaq.exam-settings', '{"exam":"ex1"}', '{"passingGrade":0.5}');
      INSERT INTO source_files (id, name, path, sha256, bytes, format, year, imported_at,
          change_set_id, records, submissions_added, annotations_added, warnings)
        VALUES (2, 'event_blocks.csv', 'metaphor/event_blocks.csv', 'cd34', 64, 'halie', NULL,
          1700000014000, 3, 3, 0, 0, '[]');
      INSERT INTO halie_sessions (id, task, external_id, worker_id, blocks, metadata, change_set_id)
        VALUES (1, 'metaphor', 'logged', 1, 1, '{"start_timestamp": 1600000000.5}', 3),
               (2, 'metaphor', 'metadata-only', 2, 1, '{"start_timestamp": 1600000100.25}', 3),
               (3, 'metaphor', 'neither', NULL, 1, 'not json', 3);
      INSERT INTO halie_tables (id, task, kind, header, source_file_id)
        VALUES (1, 'metaphor', 'event_blocks', '["session_id"]', 2);
      INSERT INTO halie_rows (id, table_id, line, session_id, cells)
        VALUES (1, 1, 2, 1, '["logged"]'), (2, 1, 3, 2, '["metadata-only"]'),
               (3, 1, 4, 3, '["neither"]');
      INSERT INTO halie_logs (id, session_id, source_file_id, events, duration_ms)
        VALUES (1, 1, 2, 3, 2000);
      INSERT INTO halie_log_events (log_id, seq, line)
        VALUES (1, 0, 'garbled'), (1, 1, '{"eventTimestamp": 1599999999000}'),
               (1, 2, '{"eventTimestamp": 1600000001000}');
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 16)
    expectRowsKept(project.db, before)
    expect(
      project.db
        .prepare('SELECT id, rating, started_at FROM halie_sessions ORDER BY id')
        .raw()
        .all(),
    ).toEqual([
      // The first event that reads as JSON, not the metadata's start.
      [1, null, 1599999999000],
      [2, null, 1600000100250],
      [3, null, null],
    ])
    expect(project.db.prepare('SELECT DISTINCT rating FROM halie_rows').pluck().all()).toEqual([
      null,
    ])
    project.db.close()

    // The rebuilt entries take a HALIE rating, and History's entries before it are the same.
    const db = openProject(project.path)
    rateSessions(db, [2], { value: 2, author: 'ana' })
    expect(
      db
        .prepare('SELECT id, subject, key, value FROM change_entries WHERE id > 100 ORDER BY id')
        .raw()
        .all(),
    ).toEqual([
      [101, 'setting', '"release.tierMap"', '[{"rating":2,"tier":1}]'],
      [102, 'crowdaq.exam-settings', '{"exam":"ex1"}', '{"passingGrade":0.5}'],
      [103, 'halie.rating', '{"session":2}', '2'],
    ])
    expect(db.prepare('SELECT rating FROM halie_sessions WHERE id = 2').pluck().get()).toBe(2)
    db.close()
  })
})
