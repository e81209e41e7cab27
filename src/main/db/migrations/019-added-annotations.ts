import type { Migration } from '../types'

/**
 * The annotations a change set added to a submission an earlier change set wrote (a per-dimension
 * file completing dimensions, an MTurk pull answering for a submission a file brought): their rows
 * name the submission's change set, so this says which change set brought them, and a team push
 * sends them with it.
 */
const migration: Migration = {
  version: 19,
  name: 'added-annotations',
  up(db) {
    db.exec(`
      CREATE TABLE added_annotations (
        annotation_id INTEGER PRIMARY KEY REFERENCES annotations(id),
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX added_annotations_change_set ON added_annotations(change_set_id);
    `)
  },
}

export default migration
