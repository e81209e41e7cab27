import type { Migration } from '../types'

/**
 * Mechanical Turk: the HITs seen, pull runs with per-HIT checkpoints (so a killed or cancelled
 * pull resumes at its last stored page), the assignments pulled (linked to their submissions, with
 * what "pull new" needs to spot changes), and every action taken on workers with what was sent and
 * what came back. Credentials are never stored here: they live outside the project file.
 */
const migration: Migration = {
  version: 3,
  name: 'mturk',
  up(db) {
    db.exec(`
      -- The MTurk AssignmentStatus of a pulled submission; NULL for work imported from files.
      ALTER TABLE submissions ADD COLUMN status TEXT
        CHECK (status IN ('Submitted', 'Approved', 'Rejected'));
      CREATE INDEX submissions_status ON submissions(status) WHERE status IS NOT NULL;

      CREATE TABLE mturk_hits (
        hit_id TEXT PRIMARY KEY,
        hit_type_id TEXT NOT NULL,
        title TEXT NOT NULL,
        -- Epoch seconds. Disposal = creation + 120 days: the service then forgets the HIT.
        created_at INTEGER,
        expires_at INTEGER,
        disposal_at INTEGER,
        status TEXT,
        max_assignments INTEGER,
        -- Assignment counts and status as last listed: when they are unchanged since the HIT's
        -- last complete pull (pulled_signature), "pull new" skips it.
        signature TEXT NOT NULL,
        -- The HIT as last listed (JSON); its Question tells how answers are escaped.
        raw TEXT NOT NULL,
        -- Epoch ms.
        listed_at INTEGER NOT NULL,
        pulled_at INTEGER,
        pulled_signature TEXT,
        -- When a listing first lacked it (disposed or deleted); NULL while the service has it.
        gone_at INTEGER
      ) STRICT;
      CREATE INDEX mturk_hits_type ON mturk_hits(hit_type_id);

      CREATE TABLE mturk_assignments (
        assignment_id TEXT PRIMARY KEY,
        hit_id TEXT NOT NULL REFERENCES mturk_hits(hit_id),
        submission_id INTEGER NOT NULL REFERENCES submissions(id),
        worker_external_id TEXT NOT NULL,
        status TEXT NOT NULL,
        -- Epoch seconds: Submitted work turns Approved by itself at auto_approval_at.
        auto_approval_at INTEGER,
        reviewed_at INTEGER,
        -- Epoch ms of the pull that last saw it.
        pulled_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX mturk_assignments_hit ON mturk_assignments(hit_id, status, auto_approval_at);
      CREATE INDEX mturk_assignments_worker ON mturk_assignments(worker_external_id);
      CREATE INDEX mturk_assignments_submission ON mturk_assignments(submission_id);

      CREATE TABLE mturk_pulls (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL CHECK (mode IN ('all', 'new')),
        -- JSON {hitTypeIds, titleContains}: a pull with the same mode, selection and endpoint
        -- resumes an unfinished one.
        selection TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done', 'cancelled', 'failed')),
        -- Epoch ms.
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        hits INTEGER NOT NULL DEFAULT 0,
        assignments INTEGER NOT NULL DEFAULT 0,
        added INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        -- The change set its submissions were written in (the latest one if it needed several).
        change_set_id INTEGER REFERENCES change_sets(id),
        error TEXT
      ) STRICT;

      -- Per HIT of a pull: the page to fetch next. Written in the same transaction as the page
      -- before it, so a kill loses at most the page in flight.
      CREATE TABLE mturk_checkpoints (
        pull_id INTEGER NOT NULL REFERENCES mturk_pulls(id),
        hit_id TEXT NOT NULL REFERENCES mturk_hits(hit_id),
        -- NULL: start at the first page.
        next_token TEXT,
        done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
        PRIMARY KEY (pull_id, hit_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE worker_actions (
        id INTEGER PRIMARY KEY,
        action TEXT NOT NULL,
        assignment_id TEXT,
        -- JSON: the operation's input (never credentials) and its output or error.
        request TEXT NOT NULL,
        response TEXT,
        error TEXT,
        note TEXT NOT NULL DEFAULT '',
        request_id TEXT,
        endpoint TEXT NOT NULL,
        -- A paid bonus's UniqueRequestToken: the index keeps one local record per payment.
        bonus_token TEXT,
        -- Epoch ms.
        at INTEGER NOT NULL,
        -- Set when the action changed the project (an approval's status): that change set.
        change_set_id INTEGER REFERENCES change_sets(id)
      ) STRICT;
      CREATE UNIQUE INDEX worker_actions_bonus_paid ON worker_actions(bonus_token)
        WHERE bonus_token IS NOT NULL AND error IS NULL;

      -- The workers an action was about (one, or up to 100 for NotifyWorkers), with a failure
      -- that concerned this worker only.
      CREATE TABLE worker_action_targets (
        worker_external_id TEXT NOT NULL,
        action_id INTEGER NOT NULL REFERENCES worker_actions(id),
        failure TEXT,
        PRIMARY KEY (worker_external_id, action_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX worker_action_targets_action ON worker_action_targets(action_id);
    `)
  },
}

export default migration
