import type { Migration } from '../types'

/**
 * An MTurk assignment names the change set that last wrote it (the pull that linked it or changed
 * its status, the approval or rejection sent), so it travels to a team's other replicas with that
 * change set. Assignments pulled before take the change set of the submission they answer.
 */
const migration: Migration = {
  version: 22,
  name: 'mturk-change-sets',
  up(db) {
    db.exec(`
      ALTER TABLE mturk_assignments ADD COLUMN change_set_id INTEGER REFERENCES change_sets(id);
      UPDATE mturk_assignments SET change_set_id =
        (SELECT s.change_set_id FROM submissions s WHERE s.id = mturk_assignments.submission_id);
      CREATE INDEX mturk_assignments_change_set ON mturk_assignments(change_set_id);
      CREATE INDEX worker_actions_change_set ON worker_actions(change_set_id)
        WHERE change_set_id IS NOT NULL;
    `)
  },
}

export default migration
