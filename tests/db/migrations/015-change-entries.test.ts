import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../../src/main/db/connection'
import { createChangeSet } from '../../../src/main/db/queries/changes/sets'
import { writeSetting } from '../../../src/main/db/queries/settings'
import { SubmissionWriter } from '../../../src/main/db/queries/submissions'
import { migrate } from '../../../src/main/db/migrations'
import { QUIET } from '../../../src/main/jobs/writeHooks'
import { rate } from '../../../src/main/tasks/writeTasks'
import { judge } from '../../../src/main/audits/audits'
import { undo } from '../../../src/main/ratings/revert'
import { markAnnotation } from '../../../src/main/triage/queue'
import { generateSubmissions } from '../../../src/main/synth/glucose'
import { useTempDir } from '../../helpers/tmp'

/**
 * A project at schema 14 as that Winnow wrote it: an import, a rating and its revert, a ProtoQA-
 * style edit, settings, a triage queue with marks, feedback and a review, an audit with verdicts.
 */
function projectAt14(dir: string): { db: Database.Database; path: string; annotations: number[] } {
  const path = join(dir, 'p.winnow')
  const db = new Database(path)
  migrate(db, path, 14)
  const annotations = db.transaction(() => {
    const imported = createChangeSet(db, { kind: 'import', author: 'imp', description: 'Import' })
    const writer = new SubmissionWriter(db, imported.id, null)
    for (const s of generateSubmissions({ count: 40, seed: 14 })) writer.write(s)
    writer.finish()
    return db.prepare('SELECT id FROM annotations ORDER BY id LIMIT 6').pluck().all() as number[]
  })()
  const [a1, a2, a3, a4] = annotations as [number, number, number, number]
  const rated = rate(
    db,
    {
      target: { kind: 'selection', annotationIds: [a1], submissionIds: [] },
      value: 2,
      author: 'rae',
    },
    QUIET,
  )
  const at = Date.now()
  db.prepare(
    `INSERT INTO change_sets (kind, author, created_at, description, reverts)
     VALUES ('revert', 'rae', ?, 'Undo', ?), ('manual', 'eva', ?, 'Clustering of q1 by ann', NULL)`,
  ).run(at + 10, rated.changeSet, at + 20)
  writeSetting(db, 'release.tierMap', [{ rating: 2, tier: 1 }])
  db.exec(`
    INSERT INTO triage_queues (id, from_day, to_day, share, seed, author, created_at)
      VALUES (1, '2019-09-01', '2019-09-02', 0.5, 3, 'lee', ${at});
    INSERT INTO triage_items (queue_id, position, submission_id, feedback, reviewed_at)
      VALUES (1, 1, ${a1 >> 4}, 'Fill more.', ${at + 1}), (1, 2, ${a3 >> 4}, '', NULL);
    INSERT INTO triage_marks (queue_id, annotation_id, mark, note, marked_at)
      VALUES (1, ${a1}, 'good', 'clear', ${at + 2});
    INSERT INTO audits (id, name, filter, seed, target_margin, author, created_at)
      VALUES (1, 'spot', '{}', 5, NULL, 'ida', ${at});
    INSERT INTO audit_items (audit_id, position, annotation_id, verdict, note, judged_at)
      VALUES (1, 1, ${a2}, 'no', 'off', ${at + 3}), (1, 2, ${a4}, NULL, '', NULL);
  `)
  return { db, path, annotations }
}

const rowsOf = (db: Database.Database, table: string, order: string) =>
  db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all() as Record<string, unknown>[]

describe('migration 015 (change entries)', () => {
  const tempDir = useTempDir()

  it('keeps every change set and row, gives each change set a global id and records the state as it stood', () => {
    const { db, path, annotations } = projectAt14(tempDir())
    const [a1, a2] = annotations as [number, number]
    const before = {
      changeSets: rowsOf(db, 'change_sets', 'id'),
      queues: rowsOf(db, 'triage_queues', 'id'),
      items: rowsOf(db, 'triage_items', 'queue_id, position'),
      marks: rowsOf(db, 'triage_marks', 'annotation_id'),
      audits: rowsOf(db, 'audits', 'id'),
      auditItems: rowsOf(db, 'audit_items', 'position'),
      settings: rowsOf(db, 'settings', 'key'),
      ratings: rowsOf(db, 'item_ratings', 'id'),
      annotations: rowsOf(db, 'annotations', 'id'),
    }
    // The rating first settles the import's file ratings (an import change set of its own).
    expect(before.changeSets.map((c) => c.kind)).toEqual([
      'import',
      'import',
      'manual',
      'revert',
      'manual',
    ])

    migrate(db, path, 15)
    expect(db.pragma('user_version', { simple: true })).toBe(15)
    const changeSets = rowsOf(db, 'change_sets', 'id')
    expect(changeSets.map(({ uid: _uid, ...rest }) => rest)).toEqual(before.changeSets)
    const uids = changeSets.map((c) => c.uid as string)
    expect(uids.every((u) => /^[0-9a-f]{32}$/.test(u))).toBe(true)
    expect(new Set(uids).size).toBe(uids.length)
    const without = (rows: Record<string, unknown>[]) =>
      rows.map(({ change_set_id: _c, ...rest }) => rest)
    expect(without(rowsOf(db, 'triage_queues', 'id'))).toEqual(before.queues)
    expect(rowsOf(db, 'triage_queues', 'id').map((q) => q.change_set_id)).toEqual([null])
    expect(rowsOf(db, 'triage_items', 'queue_id, position')).toEqual(before.items)
    expect(rowsOf(db, 'triage_marks', 'annotation_id')).toEqual(before.marks)
    expect(without(rowsOf(db, 'audits', 'id'))).toEqual(before.audits)
    expect(without(rowsOf(db, 'audit_items', 'position'))).toEqual(before.auditItems)
    expect(rowsOf(db, 'settings', 'key')).toEqual(before.settings)
    expect(rowsOf(db, 'item_ratings', 'id')).toEqual(before.ratings)
    expect(rowsOf(db, 'annotations', 'id')).toEqual(before.annotations)

    // The state as it stood, with no change set: what the first recorded change is undone to.
    const entries = db
      .prepare('SELECT change_set_id, subject, key, value FROM change_entries ORDER BY id')
      .all() as { change_set_id: number | null; subject: string; key: string; value: string }[]
    expect(entries.every((e) => e.change_set_id === null)).toBe(true)
    const parsed = entries.map((e): unknown[] => [
      e.subject,
      JSON.parse(e.key) as unknown,
      JSON.parse(e.value) as unknown,
    ])
    const reviewedAt = before.items[0]?.reviewed_at
    expect(parsed).toEqual([
      ['triage.mark', { queue: 1, annotation: a1 }, { mark: 'good', note: 'clear' }],
      ['triage.feedback', { queue: 1, position: 1 }, 'Fill more.'],
      ['triage.reviewed', { queue: 1, position: 1 }, reviewedAt],
      ['audit.verdict', { audit: 1, annotation: a2 }, { verdict: 'no', note: 'off' }],
      ...before.settings.map((s): unknown[] => [
        'setting',
        s.key,
        JSON.parse(s.value as string) as unknown,
      ]),
    ])
    // Keys are written as the app writes them, so its changes find these.
    expect(entries[0]?.key).toBe(JSON.stringify({ queue: 1, annotation: a1 }))

    // The new kinds are allowed; a kind outside the list is not.
    const insert = db.prepare(
      "INSERT INTO change_sets (kind, author, created_at, description) VALUES (?, 't', 1, 'x')",
    )
    for (const kind of ['triage', 'audit', 'setting', 'crowdaq', 'protoqa']) insert.run(kind)
    expect(() => insert.run('other')).toThrow(/CHECK constraint failed/)
    // The rebuilt table keeps its index and gains those undo and each new change set read.
    expect(
      db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'change_sets'")
        .pluck()
        .all()
        .sort(),
    ).toEqual([
      'change_sets_created',
      'change_sets_kind',
      'change_sets_reverts',
      'sqlite_autoindex_change_sets_1',
    ])
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })

  it('lets the first mark and verdict after it be undone to what the project held before', () => {
    const { db, path, annotations } = projectAt14(tempDir())
    const [a1, a2] = annotations as [number, number]
    db.close()
    const project = openProject(path)
    markAnnotation(project, { queueId: 1, annotationId: a1, mark: 'bad', author: 'lee' })
    judge(project, { auditId: 1, annotationId: a2, verdict: 'yes', author: 'ida' })
    undo(project, 'ida')
    undo(project, 'lee')
    expect(project.prepare('SELECT mark, note FROM triage_marks').all()).toEqual([
      { mark: 'good', note: 'clear' },
    ])
    expect(
      project.prepare('SELECT verdict, note FROM audit_items WHERE annotation_id = ?').get(a2),
    ).toEqual({ verdict: 'no', note: 'off' })
    project.close()
  })

  it('migrates a project that already held a broken reference, and keeps it as it was', () => {
    const { db, path } = projectAt14(tempDir())
    db.pragma('foreign_keys = OFF')
    db.exec(`INSERT INTO triage_marks (queue_id, annotation_id, mark, note, marked_at)
      VALUES (99, 16, 'bad', '', 1)`)
    db.pragma('foreign_keys = ON')
    migrate(db, path, 15)
    expect(db.pragma('user_version', { simple: true })).toBe(15)
    expect(db.prepare('SELECT count(*) FROM triage_marks WHERE queue_id = 99').pluck().get()).toBe(
      1,
    )
    db.close()
  })
})
