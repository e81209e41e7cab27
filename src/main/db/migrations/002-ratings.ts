import type { Migration } from '../types'

/**
 * Ratings as an append-only history (DESIGN.md "Ratings"). A worker rating takes effect from its
 * commit date; an item rating overrides it for one annotation. Reverts never delete: they add a
 * `rating_retractions` row that switches a rating row off (or back on, for a revert of a revert),
 * so "as of T" is "rows recorded by T, minus rows retracted by T". `annotations.rating` and
 * `rating_source` cache the result for the present.
 */
const INITIAL_SCALE = [
  { value: 3, label: 'Top', color: '#1a9850' },
  { value: 2, label: 'Proficient', color: '#66bd63' },
  { value: 1.5, label: 'Fair+', color: '#a6d96a' },
  { value: 1, label: 'Fair', color: '#fee08b' },
  { value: 0, label: 'Disqualified', color: '#f46d43' },
  { value: -1, label: 'New worker', color: '#bababa' },
  { value: -2, label: 'Rushing', color: '#d73027' },
]

const migration: Migration = {
  version: 2,
  name: 'ratings',
  up(db) {
    db.exec(`
      CREATE TABLE worker_ratings (
        id INTEGER PRIMARY KEY,
        worker_id INTEGER NOT NULL REFERENCES workers(id),
        value REAL NOT NULL,
        -- The commit date: epoch seconds (UTC midnight of the day chosen).
        effective_from INTEGER NOT NULL,
        -- Epoch ms, equal to its change set's created_at.
        recorded_at INTEGER NOT NULL,
        author TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX worker_ratings_worker ON worker_ratings(worker_id, effective_from);
      CREATE INDEX worker_ratings_change_set ON worker_ratings(change_set_id);
      CREATE INDEX worker_ratings_recorded ON worker_ratings(recorded_at);

      -- One row per annotation; rating a submission writes a row for each of its annotations.
      CREATE TABLE item_ratings (
        id INTEGER PRIMARY KEY,
        annotation_id INTEGER NOT NULL REFERENCES annotations(id),
        -- NULL clears earlier item ratings: the worker timeline applies again.
        value REAL,
        recorded_at INTEGER NOT NULL,
        author TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX item_ratings_annotation ON item_ratings(annotation_id, recorded_at);
      CREATE INDEX item_ratings_change_set ON item_ratings(change_set_id);
      CREATE INDEX item_ratings_recorded ON item_ratings(recorded_at);

      -- A rating row is in force from its recorded_at; the latest row here about it (by T) says
      -- whether it has been retracted (1) or reinstated (0) since.
      CREATE TABLE rating_retractions (
        id INTEGER PRIMARY KEY,
        target TEXT NOT NULL CHECK (target IN ('worker', 'item')),
        rating_id INTEGER NOT NULL,
        retracted INTEGER NOT NULL CHECK (retracted IN (0, 1)),
        recorded_at INTEGER NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX rating_retractions_target ON rating_retractions(target, rating_id, recorded_at);
      CREATE INDEX rating_retractions_change_set ON rating_retractions(change_set_id);
      CREATE INDEX rating_retractions_recorded ON rating_retractions(recorded_at);

      -- What a change set did to effective ratings, written when it was applied (history, undo).
      CREATE TABLE rating_effects (
        change_set_id INTEGER PRIMARY KEY REFERENCES change_sets(id),
        changed INTEGER NOT NULL,
        -- JSON [{"from": number|null, "to": number|null, "count": n}]
        transitions TEXT NOT NULL
      ) STRICT;

      -- Annotations written since the last import reconstruction (any writer): the reconstruction
      -- turns their file ratings into timelines and empties this list. (A worker's range updates
      -- use 004's ann_worker index, which leads with worker_id, submitted_at.)
      CREATE TABLE rating_pending (annotation_id INTEGER PRIMARY KEY) STRICT;
      CREATE TRIGGER annotations_rating_pending AFTER INSERT ON annotations BEGIN
        INSERT OR IGNORE INTO rating_pending (annotation_id) VALUES (new.id);
      END;
    `)
    // Written out here, not imported: a migration must keep doing what it did when it shipped.
    db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(
      'ratings.scale',
      JSON.stringify(INITIAL_SCALE),
    )
  },
}

export default migration
