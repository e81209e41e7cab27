import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

const NONE = -9007199254740991

describe('migration 018 (submission counts)', () => {
  const tempDir = useTempDir()

  it('counts submissions by day, worker, dimensions filled and work time; later imports are logged as moves', () => {
    const project = projectAt(tempDir(), 17)
    writeGlucoseWork(project.db)
    // Beside the common work: one with an accept time, one without a time, one without annotations.
    project.db.exec(`
      INSERT INTO submissions (id, source_key, worker_id, story_id, sentence_index, submitted_at,
          accepted_at, file_rating, declared_filled, source_file_id, source_line, change_set_id)
        VALUES (3, 'e3|W1', 1, 1, 0, 1568700100, 1568700040, 3, 1, 1, 4, 1),
               (4, 'e4|W1', 1, 1, 1, NULL, NULL, 3, 1, 1, 5, 1),
               (5, 'e5|W2', 2, 1, 1, 1568800000, NULL, 3, 0, 1, 6, 1);
      INSERT INTO annotations (id, submission_id, dimension, worker_id, story_id, sentence_index,
          submitted_at, file_rating, rating, rating_source, flags)
        VALUES (50, 3, 2, 1, 1, 0, 1568700100, 3, 2, 1, 0),
               (65, 4, 1, 1, 1, 1, NULL, 3, 2, 1, 5);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 18)
    expectRowsKept(project.db, before)
    const rows = (table: string): unknown[] =>
      project.db.prepare(`SELECT * FROM ${table}`).raw().all()
    // 1568700000 s is day 18156; masks have bit d for dimension d.
    expect(rows('submission_shapes')).toEqual([
      [NONE, 1, 0b10, 1],
      [18156, 1, 0b100, 1],
      [18156, 1, 0b110, 1],
      [18157, 2, 0b1010, 1],
    ])
    expect(rows('submission_work')).toEqual([
      [NONE, 1, NONE, 1],
      [18156, 1, NONE, 1],
      [18156, 1, 60, 1],
      [18157, 2, NONE, 1],
    ])
    expect(rows('submission_days')).toEqual([
      [NONE, 1],
      [18156, 2],
      [18157, 2],
    ])
    expect(rows('submission_count_moves')).toEqual([])

    // A dimension added to submission 5 later (a per-dimension file) moves it from no mask to one;
    // a rating moves nothing.
    project.db.exec(`
      INSERT INTO annotations (id, submission_id, dimension, worker_id, story_id, sentence_index,
          submitted_at, file_rating, rating, rating_source)
        VALUES (84, 5, 4, 2, 1, 1, 1568800000, 3, NULL, 0), (81, 5, 1, 2, 1, 1, 1568800000, 3, NULL, 0);
      UPDATE annotations SET rating = 3 WHERE id = 33;
    `)
    expect(rows('submission_count_moves')).toEqual([
      [18157, 2, 0b10000, NONE, 1],
      [18157, 2, 0b10000, NONE, -1],
      [18157, 2, 0b10010, NONE, 1],
    ])
    project.db.close()
  })
})
