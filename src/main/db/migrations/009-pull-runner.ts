import type { Migration } from '../types'

/**
 * Which process runs a pull (`<host> <pid>`) while it is `running`: a second pull of the same
 * selection is refused while that process lives, and resumes the pull once it is gone (killed,
 * or the machine restarted).
 */
const migration: Migration = {
  version: 9,
  name: 'pull-runner',
  up(db) {
    db.exec(`ALTER TABLE mturk_pulls ADD COLUMN runner TEXT`)
  },
}

export default migration
