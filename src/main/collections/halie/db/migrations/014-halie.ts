import type { Migration } from '../../../../db/types'

/**
 * HALIE, human–LM interaction traces: per task, the standardised tables kept cell for cell
 * (`halie_tables` holds each file's header, `halie_rows` each row's cells as a JSON array, so a
 * release writes back exactly what was imported), the sessions they join on with the figures
 * the grid filters by, survey scores, and the raw logs' events in log order.
 */
const migration: Migration = {
  version: 14,
  name: 'halie',
  up(db) {
    db.exec(`
      CREATE TABLE halie_sessions (
        id INTEGER PRIMARY KEY,
        task TEXT NOT NULL,
        external_id TEXT NOT NULL,
        worker_id INTEGER REFERENCES workers(id),
        model TEXT,
        prompt TEXT,
        blocks INTEGER NOT NULL DEFAULT 0,
        queries INTEGER NOT NULL DEFAULT 0,
        elapsed_minutes REAL,
        accuracy REAL,
        metadata TEXT,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        UNIQUE (task, external_id)
      ) STRICT;
      CREATE INDEX halie_sessions_worker ON halie_sessions(worker_id);

      CREATE TABLE halie_tables (
        id INTEGER PRIMARY KEY,
        task TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('event_blocks', 'survey_responses', 'accuracies')),
        header TEXT NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_files(id),
        UNIQUE (task, kind)
      ) STRICT;

      CREATE TABLE halie_rows (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES halie_tables(id),
        line INTEGER NOT NULL,
        session_id INTEGER NOT NULL REFERENCES halie_sessions(id),
        cells TEXT NOT NULL
      ) STRICT;
      CREATE INDEX halie_rows_session ON halie_rows(session_id, table_id);

      CREATE TABLE halie_scores (
        session_id INTEGER NOT NULL REFERENCES halie_sessions(id),
        name TEXT NOT NULL,
        value REAL NOT NULL,
        PRIMARY KEY (session_id, name)
      ) STRICT;
      CREATE INDEX halie_scores_name ON halie_scores(name, value);

      CREATE TABLE halie_logs (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL UNIQUE REFERENCES halie_sessions(id),
        source_file_id INTEGER NOT NULL REFERENCES source_files(id),
        events INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE halie_log_events (
        log_id INTEGER NOT NULL REFERENCES halie_logs(id),
        seq INTEGER NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (log_id, seq)
      ) STRICT, WITHOUT ROWID;
    `)
  },
}

export default migration
