import type { Migration } from './index'

const migration: Migration = {
  version: 3,
  name: 'mturk',
  up() {
    // Tables of this domain arrive with its first feature.
  },
}

export default migration
