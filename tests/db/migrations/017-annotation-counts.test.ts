import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

const UNRATED = Number.POSITIVE_INFINITY
const NO_TIME = -9007199254740991

describe('migration 017 (annotation counts)', () => {
  const tempDir = useTempDir()

  it('counts every annotation by worker, day, dimension, rating and flags; later writes are logged as moves', () => {
    const project = projectAt(tempDir(), 16)
    writeGlucoseWork(project.db)
    // Beside the common work: one submission before 1970 and one without a time, flagged.
    project.db.exec(`
      INSERT INTO submissions (id, source_key, worker_id, story_id, sentence_index, submitted_at,
          file_rating, declared_filled, source_file_id, source_line, change_set_id)
        VALUES (3, 'e3|W1', 1, 1, 0, -1, 3, 1, 1, 4, 1),
               (4, 'e4|W1', 1, 1, 1, NULL, 3, 1, 1, 5, 1);
      INSERT INTO annotations (id, submission_id, dimension, worker_id, story_id, sentence_index,
          submitted_at, file_rating, rating, rating_source, flags)
        VALUES (49, 3, 1, 1, 1, 0, -1, 3, 2, 1, 0),
               (65, 4, 1, 1, 1, 1, NULL, 3, 2, 1, 5);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 17)
    expectRowsKept(project.db, before)
    const rows = (table: string): unknown[] =>
      project.db.prepare(`SELECT * FROM ${table}`).raw().all()
    // Days are UTC days since 1970 (1568700000 s is day 18156), floored below zero.
    expect(rows('annotation_counts')).toEqual([
      [1, NO_TIME, 1, 2, 5, 1],
      [1, -1, 1, 2, 0, 1],
      [1, 18156, 1, 2, 0, 1],
      [1, 18156, 2, 1, 0, 1],
      [2, 18157, 1, UNRATED, 0, 1],
      [2, 18157, 3, UNRATED, 0, 1],
    ])
    expect(rows('annotation_day_counts')).toEqual([
      [NO_TIME, 1, 2, 5, 1],
      [-1, 1, 2, 0, 1],
      [18156, 1, 2, 0, 1],
      [18156, 2, 1, 0, 1],
      [18157, 1, UNRATED, 0, 1],
      [18157, 3, UNRATED, 0, 1],
    ])
    expect(rows('annotation_worker_dimensions')).toEqual([
      [1, 1, 3],
      [1, 2, 1],
      [2, 1, 1],
      [2, 3, 1],
    ])
    expect(rows('annotation_count_moves')).toEqual([])

    // A rating written after the migration moves its annotation from one key to the other.
    project.db.exec('UPDATE annotations SET rating = 3 WHERE id = 33')
    expect(rows('annotation_count_moves')).toEqual([
      [2, 18157, 1, UNRATED, 0, -1],
      [2, 18157, 1, 3, 0, 1],
    ])
    project.db.close()
  })
})
