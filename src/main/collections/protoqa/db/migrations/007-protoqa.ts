import type { Migration } from '../../../../db/types'

/**
 * ProtoQA, a second kind of collection beside GLUCOSE: questions, their distinct answers with
 * respondent counts, the responses of raw answer lists (with their workers), clusterings and
 * ranked predictions.
 *
 * A clustering is never edited: saving one adds a row, and the latest per question, author and
 * role is the current one (`imported` from a released file, `reviewer` for each expert's own,
 * `final` for the adjudicated one, with who decided). Each answer of a clustering sits in one of
 * its clusters, or is invalid (`cluster IS NULL`); its spelling fix belongs to the clustering.
 */
const migration: Migration = {
  version: 7,
  name: 'protoqa',
  up(db) {
    db.exec(`
      CREATE TABLE protoqa_questions (
        id INTEGER PRIMARY KEY,
        external_id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        original TEXT NOT NULL,
        normalized TEXT NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id),
        source_file_id INTEGER REFERENCES source_files(id)
      ) STRICT;

      CREATE TABLE protoqa_answers (
        id INTEGER PRIMARY KEY,
        question_id INTEGER NOT NULL REFERENCES protoqa_questions(id),
        text TEXT NOT NULL,
        count INTEGER NOT NULL CHECK (count >= 0),
        UNIQUE (question_id, text)
      ) STRICT;

      CREATE TABLE protoqa_responses (
        id INTEGER PRIMARY KEY,
        question_id INTEGER NOT NULL REFERENCES protoqa_questions(id),
        answer_id INTEGER NOT NULL REFERENCES protoqa_answers(id),
        worker_id INTEGER NOT NULL REFERENCES workers(id),
        given TEXT NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_files(id),
        line INTEGER NOT NULL,
        UNIQUE (question_id, worker_id)
      ) STRICT;
      CREATE INDEX protoqa_responses_answer ON protoqa_responses(answer_id);
      CREATE INDEX protoqa_responses_worker ON protoqa_responses(worker_id);

      CREATE TABLE protoqa_clusterings (
        id INTEGER PRIMARY KEY,
        question_id INTEGER NOT NULL REFERENCES protoqa_questions(id),
        role TEXT NOT NULL CHECK (role IN ('imported', 'reviewer', 'final')),
        author TEXT NOT NULL,
        decided_by TEXT,
        recorded_at INTEGER NOT NULL,
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;
      CREATE INDEX protoqa_clusterings_current ON protoqa_clusterings(question_id, role, author, id);

      CREATE TABLE protoqa_clusters (
        clustering_id INTEGER NOT NULL REFERENCES protoqa_clusterings(id),
        position INTEGER NOT NULL,
        label TEXT NOT NULL,
        name TEXT NOT NULL,
        declared_count INTEGER,
        PRIMARY KEY (clustering_id, position)
      ) STRICT;

      CREATE TABLE protoqa_cluster_answers (
        clustering_id INTEGER NOT NULL REFERENCES protoqa_clusterings(id),
        answer_id INTEGER NOT NULL REFERENCES protoqa_answers(id),
        cluster INTEGER,
        member_order INTEGER NOT NULL,
        fixed TEXT,
        PRIMARY KEY (clustering_id, answer_id)
      ) STRICT;

      CREATE TABLE protoqa_prediction_sets (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_files(id),
        change_set_id INTEGER NOT NULL REFERENCES change_sets(id)
      ) STRICT;

      CREATE TABLE protoqa_predictions (
        set_id INTEGER NOT NULL REFERENCES protoqa_prediction_sets(id),
        question TEXT NOT NULL,
        rank INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (set_id, question, rank)
      ) STRICT;
    `)
  },
}

export default migration
