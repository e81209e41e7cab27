import type { Migration } from '../types'

/**
 * `ann_rating` narrowed to the columns rating filters seek through (rating, then worker, date and
 * dimension). Every change of effective ratings rewrites its entries, and a bulk rewrite or an
 * import rebuilds it, which costs less with fewer columns; flags, story and sentence filters have
 * their own indexes (ann_flagged also holds the rating).
 *
 * Written out here rather than imported from reviewIndexes.ts: a migration must keep doing what it
 * did when it shipped (a test checks the two agree).
 */
const migration: Migration = {
  version: 5,
  name: 'narrow-rating-index',
  up(db) {
    db.exec(`
      DROP INDEX ann_rating;
      CREATE INDEX ann_rating ON annotations(rating, worker_id, submitted_at, dimension);
    `)
  },
}

export default migration
