import type { Migration } from '../../../../db/types'

/**
 * CROWDAQ, a collection of its own beside GLUCOSE: instructions, tutorials, exams with their
 * question pools and settings, task specs; exam attempts with the questions each one showed and
 * the option chosen; task assignments with their responses. Workers are the project's workers.
 * Specs are kept verbatim (JSON) so a preview shows exactly what a worker saw.
 */
const migration: Migration = {
  version: 11,
  name: 'crowdaq',
  up(db) {
    db.exec(`
      CREATE TABLE crowdaq_instructions (
        id TEXT PRIMARY KEY,
        markdown TEXT NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;

      CREATE TABLE crowdaq_tutorials (
        id TEXT PRIMARY KEY,
        instruction_id TEXT,
        -- The tutorial JSON as imported or authored.
        spec TEXT NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;

      CREATE TABLE crowdaq_exams (
        id TEXT PRIMARY KEY,
        instruction_id TEXT,
        tutorial_id TEXT,
        -- 0: every enabled question; otherwise a random subset of this many per attempt.
        questions_per_attempt INTEGER NOT NULL CHECK (questions_per_attempt >= 0),
        -- Fraction 0–1.
        passing_grade REAL NOT NULL CHECK (passing_grade BETWEEN 0 AND 1),
        attempts_allowed INTEGER NOT NULL CHECK (attempts_allowed >= 1),
        time_limit_seconds INTEGER NOT NULL CHECK (time_limit_seconds >= 1),
        qualification_type_id TEXT,
        -- JSON [{name, minGrade, qualificationTypeId, value}]: grades → MTurk qualifications.
        bands TEXT NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;

      CREATE TABLE crowdaq_questions (
        exam_id TEXT NOT NULL REFERENCES crowdaq_exams(id),
        question_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        answer TEXT NOT NULL,
        -- A disabled question is kept but never sampled.
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        spec TEXT NOT NULL,
        PRIMARY KEY (exam_id, question_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE crowdaq_tasks (
        id TEXT PRIMARY KEY,
        spec TEXT NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;

      CREATE TABLE crowdaq_exam_attempts (
        id INTEGER PRIMARY KEY,
        exam_id TEXT NOT NULL REFERENCES crowdaq_exams(id),
        worker_id INTEGER NOT NULL REFERENCES workers(id),
        platform TEXT,
        -- 'crowdaq' (an export row), 'csv', 'mturk' (a qualification HIT's assignment).
        source TEXT NOT NULL CHECK (source IN ('crowdaq', 'csv', 'mturk')),
        -- Unique per attempt in its source: a second import of the same file adds nothing.
        source_key TEXT NOT NULL UNIQUE,
        -- Epoch seconds; NULL when the source has no completion time.
        completed_at INTEGER,
        -- The attempt number the source gave (CSV), for order when times are missing.
        source_order INTEGER NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX crowdaq_exam_attempts_exam ON crowdaq_exam_attempts(exam_id, worker_id);

      -- One row per question shown in an attempt; answer NULL when left unanswered.
      CREATE TABLE crowdaq_attempt_answers (
        attempt_id INTEGER NOT NULL REFERENCES crowdaq_exam_attempts(id),
        question_id TEXT NOT NULL,
        answer TEXT,
        PRIMARY KEY (attempt_id, question_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE crowdaq_task_assignments (
        id INTEGER PRIMARY KEY,
        task_id TEXT NOT NULL,
        worker_id INTEGER NOT NULL REFERENCES workers(id),
        platform TEXT,
        started_at INTEGER,
        completed_at INTEGER,
        -- JSON {group: {collector: value}}: the displayed collectors only (CROWDAQ's filteredResult).
        response TEXT NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        UNIQUE (task_id, worker_id)
      ) STRICT;
    `)
  },
}

export default migration
