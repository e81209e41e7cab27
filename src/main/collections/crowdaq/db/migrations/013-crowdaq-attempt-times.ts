import type { Migration } from '../../../../db/types'

/**
 * When a CROWDAQ exam attempt began and its deadline, so grading can flag attempts that took
 * longer than the exam's time limit. CROWDAQ creates an attempt's row when the worker opens the
 * exam (its `create_at`) with `deadline` = that moment + the time limit; an MTurk qualification
 * HIT's assignment has its accept time. Attempts from an attempts CSV have neither: NULL.
 */
const migration: Migration = {
  version: 13,
  name: 'crowdaq-attempt-times',
  up(db) {
    db.exec(`
      ALTER TABLE crowdaq_exam_attempts ADD COLUMN started_at INTEGER;
      ALTER TABLE crowdaq_exam_attempts ADD COLUMN deadline INTEGER;
    `)
  },
}

export default migration
