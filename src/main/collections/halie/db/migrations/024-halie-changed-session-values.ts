import type { Migration } from '../../../../db/types'

/**
 * What an import itself set in a session an earlier change set brought (JSON, as the envelope
 * carries it), kept when the import is made: read at push time from the session's row instead,
 * it would carry what a pull wrote there meanwhile, and the later-placed import would not stand.
 * Null for a row recorded before this column.
 */
const migration: Migration = {
  version: 24,
  name: 'halie-changed-session-values',
  up(db) {
    db.exec(`ALTER TABLE halie_changed_sessions ADD COLUMN changes TEXT`)
  },
}

export default migration
