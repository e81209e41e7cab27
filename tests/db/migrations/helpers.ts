import Database from 'better-sqlite3'
import { join } from 'node:path'
import { expect } from 'vitest'
import { migrate } from '../../../src/main/db/migrations'

/**
 * One test per migration, as the project's files meet it: a project written at the version before
 * (its rows put in with that version's SQL, not today's query modules, which follow the newest
 * schema), then the migration, then what must hold of the rows.
 */

export interface OldProject {
  db: Database.Database
  path: string
}

/** A project file brought up to schema `version` and no further, foreign keys checked. */
export function projectAt(dir: string, version: number): OldProject {
  const path = join(dir, 'p.winnow')
  const db = new Database(path)
  db.pragma('foreign_keys = ON')
  migrate(db, path, version)
  expect(db.pragma('user_version', { simple: true })).toBe(version)
  return { db, path }
}

/** Runs the migrations up to `version`, as opening the project with that Winnow would. */
export function migrateTo(project: OldProject, version: number): void {
  migrate(project.db, project.path, version)
  expect(project.db.pragma('user_version', { simple: true })).toBe(version)
  expect(project.db.pragma('foreign_key_check')).toEqual([])
  expect(project.db.pragma('integrity_check', { simple: true })).toBe('ok')
}

/**
 * GLUCOSE work as every schema since 002 holds it: an import of two workers' submissions with
 * their annotations and text, a worker rating and an item rating in a manual change set.
 */
export function writeGlucoseWork(db: Database.Database): void {
  db.exec(`
    INSERT INTO change_sets (id, kind, author, created_at, description) VALUES
      (1, 'import', 'lead', 1700000000000, 'Imported release.csv'),
      (2, 'manual', 'lead', 1700000001000, 'Worker W1 rated 2 from 2019-09-01');
    INSERT INTO source_files (id, name, path, sha256, bytes, format, year, imported_at,
        change_set_id, records, submissions_added, annotations_added, warnings)
      VALUES (1, 'release.csv', 'release.csv', 'ab12', 512, 'release', 2019, 1700000000000, 1, 2, 2, 4, '[]');
    INSERT INTO workers (id, external_id) VALUES (1, 'W1'), (2, 'W2');
    INSERT INTO stories (id, external_id, text) VALUES (1, 's1', 'Tom went out. It rained.');
    INSERT INTO sentences (story_id, idx, text) VALUES (1, 0, 'Tom went out.'), (1, 1, 'It rained.');
    INSERT INTO submissions (id, source_key, worker_id, story_id, sentence_index, submitted_at,
        file_rating, declared_filled, source_file_id, source_line, change_set_id)
      VALUES (1, 'e1|W1', 1, 1, 0, 1568700000, 3, 2, 1, 2, 1),
             (2, 'e2|W2', 2, 1, 1, 1568800000, 2, 2, 1, 3, 1);
    INSERT INTO annotations (id, submission_id, dimension, worker_id, story_id, sentence_index,
        submitted_at, file_rating, rating, rating_source)
      VALUES (17, 1, 1, 1, 1, 0, 1568700000, 3, 2, 1),
             (18, 1, 2, 1, 1, 0, 1568700000, 3, 1, 2),
             (33, 2, 1, 2, 1, 1, 1568800000, 2, NULL, 0),
             (35, 2, 3, 2, 1, 1, 1568800000, 2, NULL, 0);
    INSERT INTO annotation_texts (annotation_id, specific_nl, general_nl) VALUES
      (17, 'Tom sees clouds >Causes> Tom takes an umbrella', 'Someone sees clouds >Causes> Someone takes an umbrella'),
      (18, 'Tom wants to stay dry >Motivates> Tom takes an umbrella', 'Someone wants >Motivates> Someone acts'),
      (33, 'Clouds gather >Causes> It rains', 'Something happens >Causes> Something else'),
      (35, 'It rains >Enables> The street is wet', 'Rain >Enables> Wet');
    INSERT INTO worker_ratings (id, worker_id, value, effective_from, recorded_at, author, note, change_set_id)
      VALUES (1, 1, 2, 1567296000, 1700000001000, 'lead', '', 2);
    INSERT INTO item_ratings (id, annotation_id, value, recorded_at, author, note, change_set_id)
      VALUES (1, 18, 1, 1700000001000, 'lead', 'vague', 2);
  `)
}

interface TableRows {
  columns: string[]
  rows: unknown[]
}

/** Every row of every table (not the search index's own tables), in rowid or key order. */
export function rowsOf(db: Database.Database): Record<string, TableRows> {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
         AND name NOT IN (SELECT s.name || suffix FROM sqlite_schema s,
           (SELECT '_data' AS suffix UNION ALL SELECT '_idx' UNION ALL SELECT '_content'
            UNION ALL SELECT '_docsize' UNION ALL SELECT '_config')
           WHERE s.sql LIKE 'CREATE VIRTUAL TABLE%')
       ORDER BY name`,
    )
    .pluck()
    .all() as string[]
  const out: Record<string, TableRows> = {}
  for (const table of tables) {
    const columns = db
      .prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid')
      .pluck()
      .all(table) as string[]
    out[table] = { columns, rows: select(db, table, columns) }
  }
  return out
}

function select(db: Database.Database, table: string, columns: readonly string[]): unknown[] {
  const list = columns.map((c) => `"${c}"`).join(', ')
  return db.prepare(`SELECT ${list} FROM "${table}" ORDER BY ${list}`).all()
}

/** The rows `before` held are all still there, column for column (new columns aside). */
export function expectRowsKept(db: Database.Database, before: Record<string, TableRows>): void {
  for (const [table, { columns, rows }] of Object.entries(before)) {
    expect({ table, rows: select(db, table, columns) }).toEqual({ table, rows })
  }
}
