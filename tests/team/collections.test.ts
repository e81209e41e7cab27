import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import pg from 'pg'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { saveExamSettings } from '../../src/main/collections/crowdaq/authoring'
import { examRow } from '../../src/main/collections/crowdaq/db/specs'
import { rateSessions } from '../../src/main/collections/halie/ratings'
import { saveClustering } from '../../src/main/collections/protoqa/clusterings'
import { currentClusterings } from '../../src/main/collections/protoqa/db/clusterings'
import { questionRow } from '../../src/main/collections/protoqa/db/questions'
import { cli, ok } from '../helpers/cli'
import { writeHalieFolder } from '../helpers/halie'
import { noPostgres } from '../helpers/postgres'
import { usePostgres } from '../helpers/team'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'
import { HALIE_TASKS } from '../../src/shared/halie/tasks'
import { serverAtSchema3, serverAtSchema4, serverSchemaVersion } from '../helpers/serverSchema'
import { COLLECTION_TABLES } from '../../src/main/collections/teams'
import { type Db, openProject } from '../../src/main/db/connection'
import { openTeamServer, pull, requireTeam } from '../../src/main/team/sync'
import { closeServer } from '../../src/main/team/server'
import { takeBackImport } from '../../src/main/team/takeBack'
import { SERVER_SCHEMA_VERSION, groupRoles } from '../../src/main/db/server/schema'

/**
 * ProtoQA, CROWDAQ and HALIE data travel as GLUCOSE's does: a publish sends their tables by
 * COPY and a join fetches them; clusterings, CROWDAQ edits and HALIE ratings travel as change
 * sets; a HALIE import made after publishing reaches every replica.
 */
const root = join(import.meta.dirname, '..', '..')
const fixture = (name: string): string => join(root, 'tests/fixtures', name)

// Needs a PostgreSQL server (tests/helpers/postgres.ts starts one); where none exists the suite
// skips and the helper says why.
describe.skipIf(noPostgres !== null)('team mode: ProtoQA, CROWDAQ and HALIE', () => {
  const postgres = usePostgres({ db: 'colls', lead: 'clead' })
  const tempDir = useTempDir()

  /** Publishes `lead` and joins a reviewer; returns the reviewer's replica. */
  async function publishAndJoin(
    dir: string,
    lead: string,
    role: 'reviewer' | 'lead' = 'reviewer',
  ): Promise<{ db: string; number: number; rev: string; join: (name: string) => Promise<string> }> {
    const t = await postgres.teamDatabase(dir)
    await t.publish(lead)
    const rev = await t.join(lead, `crev${t.number}`, role)
    return { db: t.db, number: t.number, rev, join: (name) => t.join(lead, name) }
  }

  async function importCollections(lead: string, halie: string | null): Promise<void> {
    await ok('protoqa', 'import', fixture('protoqa/questions.jsonl'), '--db', lead)
    await ok('protoqa', 'import', fixture('protoqa/answers.csv'), '--db', lead)
    for (const file of ['exam.json', 'exam_assignments.json', 'task.json', 'task_assignments.json'])
      await ok('crowdaq', 'import', fixture(`crowdaq/${file}`), '--db', lead)
    if (halie) await ok('halie', 'import', halie, '--db', lead)
  }

  /**
   * Every ProtoQA, CROWDAQ and HALIE table as plain rows in key order, the change set that
   * brought a row named by its global id (local change set ids differ between replicas).
   */
  function collectionTables(path: string): Record<string, unknown[]> {
    return withProject(path, (db) => {
      const tables = db
        .prepare(
          `SELECT name FROM sqlite_schema WHERE type = 'table'
           AND (name LIKE 'protoqa\\_%' ESCAPE '\\' OR name LIKE 'crowdaq\\_%' ESCAPE '\\'
             OR name LIKE 'halie\\_%' ESCAPE '\\') ORDER BY name`,
        )
        .pluck()
        .all() as string[]
      const out: Record<string, unknown[]> = {}
      for (const table of tables) {
        const columns = (
          db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]
        ).map((c) =>
          c === 'change_set_id'
            ? '(SELECT uid FROM change_sets c WHERE c.id = x.change_set_id)'
            : `x.${c}`,
        )
        out[table] = db
          .prepare(
            `SELECT ${columns.join(', ')} FROM ${table} x ORDER BY ${columns
              .slice(0, 3)
              .map((_, i) => i + 1)
              .join(', ')}`,
          )
          .raw()
          .all()
      }
      return out
    })
  }

  function firstSession(db: Db): { id: number; task: string; externalId: string } {
    return db
      .prepare(
        `SELECT id, task, external_id AS externalId FROM halie_sessions ORDER BY task, external_id LIMIT 1`,
      )
      .get() as { id: number; task: string; externalId: string }
  }

  function sessionRating(path: string, task: string, externalId: string): number | null {
    return withProject(path, (db) =>
      db
        .prepare('SELECT rating FROM halie_sessions WHERE task = ? AND external_id = ?')
        .pluck()
        .get(task, externalId),
    ) as number | null
  }

  function clusteringOf(db: Db, question: string, reviewer: string, answer: string): void {
    saveClustering(db, {
      question,
      role: 'reviewer',
      reviewer,
      draft: { clusters: [{ name: answer, answers: [answer] }], invalid: [], fixes: {} },
      author: reviewer,
    })
  }

  function clusterings(path: string, question: string): unknown[] {
    return withProject(path, (db) =>
      currentClusterings(db, questionRow(db, question)?.id ?? -1).map((c) => ({
        role: c.role,
        author: c.author,
        clusters: c.clusters,
        invalid: c.invalid,
      })),
    )
  }

  it('publishes a project holding ProtoQA, CROWDAQ and HALIE data; a joined replica holds the same tables', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2 })
    await importCollections(lead, join(dir, 'halie'))
    // Work made before publishing travels in the log beside the tables that hold it already.
    withProject(lead, (db) => {
      clusteringOf(db, 't1q1', 'ann', 'keys')
      rateSessions(db, [firstSession(db).id], { value: 1, author: 'ann' })
      const exam = examRow(db, 'fx_exam')?.settings
      if (exam) saveExamSettings(db, 'fx_exam', { ...exam, passingGrade: 0.7 }, 'ann')
    })
    const before = collectionTables(lead)
    for (const table of [
      'protoqa_questions',
      'protoqa_clusterings',
      'crowdaq_exams',
      'crowdaq_task_assignments',
      'halie_sessions',
      'halie_rows',
      'halie_log_events',
    ])
      expect(before[table]?.length, table).toBeGreaterThan(0)

    const { db, rev } = await publishAndJoin(dir, lead)
    const served = await postgres.server.admin$(
      'SELECT count(*)::int AS n FROM winnow.halie_sessions',
      db,
    )
    expect((served.rows[0] as { n: number }).n).toBe(before.halie_sessions?.length)
    expect(collectionTables(rev)).toEqual(collectionTables(lead))
    expect(collectionTables(lead)).toEqual(before)
  }, 120_000)

  it('carries a ProtoQA clustering, a CROWDAQ edit and a HALIE session rating between replicas', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2, logs: false })
    await importCollections(lead, join(dir, 'halie'))
    const { rev } = await publishAndJoin(dir, lead)

    const session = withProject(lead, (db) => {
      clusteringOf(db, 't1q1', 'ann', 'phone')
      const settings = examRow(db, 'fx_exam')?.settings
      if (!settings) throw new Error('the fixture has no exam fx_exam')
      saveExamSettings(db, 'fx_exam', { ...settings, passingGrade: 0.9 }, 'ann')
      const s = firstSession(db)
      rateSessions(db, [s.id], { value: -1, author: 'ann' })
      return s
    })
    // The reviewer's own clustering travels the other way (the server lets a reviewer push it).
    withProject(rev, (db) => clusteringOf(db, 't1q1', 'bob', 'wallet'))
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', rev)
    await ok('team', 'sync', '--db', lead)

    expect(sessionRating(rev, session.task, session.externalId)).toBe(-1)
    expect(withProject(rev, (db) => examRow(db, 'fx_exam')?.settings.passingGrade)).toBe(0.9)
    const held = clusterings(lead, 't1q1')
    expect(held).toContainEqual(expect.objectContaining({ author: 'ann', role: 'reviewer' }))
    expect(held).toContainEqual(expect.objectContaining({ author: 'bob', role: 'reviewer' }))
    expect(clusterings(rev, 't1q1')).toEqual(held)
  }, 120_000)

  it('carries a HALIE import made after publishing to the other replica, rated there by its session', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const { db, rev } = await publishAndJoin(dir, lead)

    writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2 })
    await ok('halie', 'import', join(dir, 'halie'), '--db', lead)
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', rev)
    const sessions = await postgres.server.admin$(
      'SELECT count(*)::int AS n FROM winnow.halie_sessions',
      db,
    )
    expect((sessions.rows[0] as { n: number }).n).toBeGreaterThan(0)
    expect(collectionTables(rev)).toEqual(collectionTables(lead))

    // The reviewer rates an imported session; the lead's replica names it alike.
    const session = withProject(rev, (d) => {
      const s = firstSession(d)
      rateSessions(d, [s.id], { value: 1, author: 'bob' })
      return s
    })
    await ok('team', 'sync', '--db', rev)
    await ok('team', 'sync', '--db', lead)
    expect(sessionRating(lead, session.task, session.externalId)).toBe(1)
  }, 120_000)

  it('carries ProtoQA and CROWDAQ imports made after publishing to the other replica', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await ok('protoqa', 'import', fixture('protoqa/questions.jsonl'), '--db', lead)
    const { db, rev } = await publishAndJoin(dir, lead)

    await ok('protoqa', 'import', fixture('protoqa/answers.csv'), '--db', lead)
    await ok('protoqa', 'import', fixture('protoqa/predictions.json'), '--db', lead)
    for (const file of ['exam.json', 'exam_assignments.json', 'task.json', 'task_assignments.json'])
      await ok('crowdaq', 'import', fixture(`crowdaq/${file}`), '--db', lead)
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 6 })
    await ok('team', 'sync', '--db', rev)
    const served = await postgres.server.admin$(
      `SELECT (SELECT count(*) FROM winnow.protoqa_responses)::int AS responses,
              (SELECT count(*) FROM winnow.crowdaq_exam_attempts)::int AS attempts`,
      db,
    )
    const counts = served.rows[0] as { responses: number; attempts: number }
    expect(counts.responses).toBeGreaterThan(0)
    expect(counts.attempts).toBeGreaterThan(0)
    const tables = collectionTables(lead)
    for (const table of ['protoqa_responses', 'protoqa_predictions', 'crowdaq_exam_attempts'])
      expect(tables[table]?.length, table).toBeGreaterThan(0)
    expect(collectionTables(rev)).toEqual(tables)
    expect(await ok('team', 'status', '--db', lead)).toMatchObject({ pending: 0 })
  }, 120_000)

  it('brings two leads importing ProtoQA and CROWDAQ files at once to one state', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await ok('protoqa', 'import', fixture('protoqa/predictions.json'), '--db', lead)
    const { rev: other } = await publishAndJoin(dir, lead, 'lead')
    for (const file of [
      'protoqa/questions.jsonl',
      'crowdaq/exam.json',
      'crowdaq/exam_assignments.json',
    ])
      await ok(file.split('/')[0] ?? '', 'import', fixture(file), '--db', lead)
    for (const file of [
      'protoqa/answers.csv',
      'crowdaq/task.json',
      'crowdaq/task_assignments.json',
    ])
      await ok(file.split('/')[0] ?? '', 'import', fixture(file), '--db', other)
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', other)
    await ok('team', 'sync', '--db', lead)
    const tables = collectionTables(lead)
    for (const table of ['protoqa_questions', 'protoqa_responses', 'crowdaq_task_assignments'])
      expect(tables[table]?.length, table).toBeGreaterThan(0)
    expect(collectionTables(other)).toEqual(tables)
    const workers = (path: string): unknown[] =>
      withProject(path, (d) => d.prepare('SELECT id, external_id FROM workers ORDER BY id').all())
    expect(workers(other)).toEqual(workers(lead))
    for (const path of [lead, other])
      expect(await ok('team', 'status', '--db', path)).toMatchObject({ pending: 0 })
  }, 120_000)

  /** Publishes `lead` and joins a second lead; both import one question set and one exam. */
  async function sameImportsOnTwoLeads(
    dir: string,
  ): Promise<{ db: string; lead: string; other: string }> {
    const lead = join(dir, 'lead.winnow')
    await ok('protoqa', 'import', fixture('protoqa/predictions.json'), '--db', lead)
    const { db, rev: other } = await publishAndJoin(dir, lead, 'lead')
    for (const path of [lead, other]) {
      await ok('protoqa', 'import', fixture('protoqa/questions.jsonl'), '--db', path)
      await ok('crowdaq', 'import', fixture('crowdaq/exam.json'), '--db', path)
    }
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 2 })
    return { db, lead, other }
  }

  /** The change set a refused sync names, after checking the refusal names the row. */
  async function refusedSync(path: string, table: string): Promise<number> {
    const refused = await cli('team', 'sync', '--db', path, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      new RegExp(`refused change set \\d+ .*the team holds ${table} \\(\\w+\\)=\\(`),
    )
    expect(refused.stderr).toMatch(/revert it here/)
    return Number(/refused change set (\d+)/.exec(refused.stderr)?.[1])
  }

  it('refuses the second of two leads importing one ProtoQA question and one CROWDAQ exam at once; its pull gives way to the rows placed first', async () => {
    const dir = tempDir()
    const { db, lead, other } = await sameImportsOnTwoLeads(dir)
    const refused = await refusedSync(other, 'protoqa_questions')
    // The server holds each question once, as the first lead imported it.
    const served = await postgres.server.admin$(
      `SELECT count(*)::int AS n, count(DISTINCT external_id)::int AS distinct FROM winnow.protoqa_questions`,
      db,
    )
    const questions = withProject(lead, (d) =>
      d.prepare('SELECT count(*) FROM protoqa_questions').pluck().get(),
    )
    expect(served.rows[0]).toEqual({ n: questions, distinct: questions })

    // The pull succeeds: the second lead's imports give way to the rows the log placed.
    const replica = openProject(other)
    try {
      const server = await openTeamServer(requireTeam(replica))
      try {
        expect((await pull(replica, server)).pulled).toBe(2)
      } finally {
        await closeServer(server)
      }
      const withdrawn = replica
        .prepare('SELECT change_set_id FROM team_withdrawn ORDER BY 1')
        .pluck()
        .all()
      expect(withdrawn).toEqual([refused, refused + 1])
    } finally {
      replica.close()
    }
    const tables = collectionTables(lead)
    expect(tables.protoqa_questions?.length).toBeGreaterThan(0)
    expect(tables.crowdaq_exams?.length).toBeGreaterThan(0)
    expect(collectionTables(other)).toEqual(tables)
    expect(await ok('team', 'sync', '--db', other)).toMatchObject({ pushed: 0 })
    await ok('team', 'sync', '--db', lead)
    expect(collectionTables(other)).toEqual(tables)
    for (const path of [lead, other])
      expect(await ok('team', 'status', '--db', path)).toMatchObject({ pending: 0 })
  }, 120_000)

  it('takes back here an import the server refused (a question set, then an exam), leaving the replica equal to the other', async () => {
    const dir = tempDir()
    const { lead, other } = await sameImportsOnTwoLeads(dir)
    for (const table of ['protoqa_questions', 'crowdaq_exams']) {
      const refused = await refusedSync(other, table)
      withProject(other, (d) =>
        d.transaction(() => takeBackImport(d, refused, 'refused by the team’s server')).immediate(),
      )
    }
    expect(await ok('team', 'sync', '--db', other)).toMatchObject({ pushed: 0, pulled: 2 })
    await ok('team', 'sync', '--db', lead)
    const tables = collectionTables(lead)
    expect(tables.protoqa_answers?.length).toBeGreaterThan(0)
    expect(tables.crowdaq_questions?.length).toBeGreaterThan(0)
    expect(collectionTables(other)).toEqual(tables)
    for (const path of [lead, other])
      expect(await ok('team', 'status', '--db', path)).toMatchObject({ pending: 0 })
  }, 120_000)

  /** A raw answer list of beach answers to question t2q1 (and t2q2), one line per worker. */
  function answerList(path: string, lines: [string, string, string][]): string {
    const rows = lines.map(([q, answer, worker]) =>
      q === 't2q1'
        ? `t2q1,Name something you find at a beach.,${answer},${worker}`
        : `t2q2,Name a pet.,${answer},${worker}`,
    )
    writeFileSync(path, ['question_id,question,answer,worker_id', ...rows, ''].join('\n'))
    return path
  }

  function answerCount(path: string, question: string, text: string): unknown {
    return withProject(path, (d) =>
      d
        .prepare(
          `SELECT a.count FROM protoqa_answers a JOIN protoqa_questions q ON q.id = a.question_id
           WHERE q.external_id = ? AND a.text = ?`,
        )
        .pluck()
        .get(question, text),
    )
  }

  it('carries answer lists two leads add to a question an earlier import brought; every replica counts both', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await ok('protoqa', 'import', fixture('protoqa/answers.csv'), '--db', lead)
    const { number, rev: other, join: joinAs } = await publishAndJoin(dir, lead, 'lead')
    expect(answerCount(lead, 't2q1', 'sand')).toBe(2)

    const mine = [
      ['t2q1', 'Shell', 'W9'],
      ['t2q1', 'Sand', 'W10'],
    ] as [string, string, string][]
    const theirs = [
      ['t2q1', 'sand', 'W11'],
      ['t2q2', 'dog', 'W12'],
    ] as [string, string, string][]
    await ok('protoqa', 'import', answerList(join(dir, 'mine.csv'), mine), '--db', lead)
    await ok('protoqa', 'import', answerList(join(dir, 'theirs.csv'), theirs), '--db', other)
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 1 })
    expect(await ok('team', 'sync', '--db', other)).toMatchObject({ pushed: 1, pulled: 1 })
    await ok('team', 'sync', '--db', lead)

    const tables = collectionTables(lead)
    expect(answerCount(lead, 't2q1', 'shell')).toBe(1)
    // Two responses added to one answer on two replicas: both counted, everywhere.
    expect(answerCount(lead, 't2q1', 'sand')).toBe(4)
    expect(answerCount(lead, 't2q2', 'dog')).toBe(2)
    expect(collectionTables(other)).toEqual(tables)
    const later = await joinAs(`cgrowq${number}`)
    expect(collectionTables(later)).toEqual(tables)
    for (const path of [lead, other])
      expect(await ok('team', 'status', '--db', path)).toMatchObject({ pending: 0 })
  }, 120_000)

  it('refuses the second of two leads adding one new answer to a question the team holds; its pull gives way', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await ok('protoqa', 'import', fixture('protoqa/answers.csv'), '--db', lead)
    const { rev: other } = await publishAndJoin(dir, lead, 'lead')
    await ok(
      'protoqa',
      'import',
      answerList(join(dir, 'a.csv'), [['t2q1', 'Pebble', 'W20']]),
      '--db',
      lead,
    )
    await ok(
      'protoqa',
      'import',
      answerList(join(dir, 'b.csv'), [['t2q1', 'pebble', 'W21']]),
      '--db',
      other,
    )
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 1 })
    const refused = await cli('team', 'sync', '--db', other, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/the team holds protoqa_answers \(question_id, text\)=\(/)

    const replica = openProject(other)
    try {
      const server = await openTeamServer(requireTeam(replica))
      try {
        expect((await pull(replica, server)).pulled).toBe(1)
      } finally {
        await closeServer(server)
      }
      expect(replica.prepare('SELECT count(*) FROM team_withdrawn').pluck().get()).toBe(1)
    } finally {
      replica.close()
    }
    const tables = collectionTables(lead)
    expect(answerCount(lead, 't2q1', 'pebble')).toBe(1)
    expect(collectionTables(other)).toEqual(tables)
    expect(await ok('team', 'sync', '--db', other)).toMatchObject({ pushed: 0 })
  }, 120_000)

  it('carries a CROWDAQ exam imported again, with its settings and questions changed, to every replica', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await ok('crowdaq', 'import', fixture('crowdaq/exam.json'), '--db', lead)
    const { number, rev, join: joinAs } = await publishAndJoin(dir, lead)

    const again = join(dir, 'again')
    mkdirSync(again)
    cpSync(fixture('crowdaq/fx_guide.md'), join(again, 'fx_guide.md'))
    const exam = JSON.parse(readFileSync(fixture('crowdaq/exam.json'), 'utf8')) as {
      max_attempts: number
      question_set: { question_id: string }[]
    }
    const first = exam.question_set[0]
    if (!first) throw new Error('the fixture exam has no question')
    exam.max_attempts = 5
    exam.question_set.push({ ...first, question_id: 'q_again' })
    writeFileSync(join(again, 'exam.json'), JSON.stringify(exam))
    await ok('crowdaq', 'import', join(again, 'exam.json'), '--db', lead)
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 1 })
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pulled: 1 })

    const tables = collectionTables(lead)
    expect(withProject(rev, (d) => examRow(d, 'fx_exam')?.settings.attemptsAllowed)).toBe(5)
    expect(
      withProject(rev, (d) =>
        d
          .prepare(`SELECT count(*) FROM crowdaq_questions WHERE question_id = 'q_again'`)
          .pluck()
          .get(),
      ),
    ).toBe(1)
    expect(collectionTables(rev)).toEqual(tables)
    const later = await joinAs(`cgrowx${number}`)
    expect(collectionTables(later)).toEqual(tables)
  }, 120_000)

  it('upgrades a server at schema 4 to hold natural keys, and refuses one holding a question twice, naming its rows and changing nothing', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const { db } = await publishAndJoin(dir, lead)
    await serverAtSchema4(postgres.server, db)
    // A question twice, as two leads' pushes left it before the server held natural keys.
    await postgres.server.admin$(
      `INSERT INTO winnow.protoqa_questions
         SELECT id + 1000000, external_id, source, original, normalized, change_set_uid, source_file_id
         FROM winnow.protoqa_questions WHERE external_id = 't1q1'`,
      db,
    )
    const refused = await cli('team', 'upgrade', '--db', lead, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/holds one thing twice/)
    expect(refused.stderr).toMatch(
      /protoqa_questions external_id t1q1 in rows \d+ \(change set [0-9a-f-]+\), \d+/,
    )
    expect(refused.stderr).toMatch(/nothing changed/)
    expect(await serverSchemaVersion(postgres.server, db)).toBe(4)
    const kept = await postgres.server.admin$(
      `SELECT count(*)::int AS n FROM winnow.protoqa_questions WHERE external_id = 't1q1'`,
      db,
    )
    expect(kept.rows[0]).toEqual({ n: 2 })

    await postgres.server.admin$(`DELETE FROM winnow.protoqa_questions WHERE id >= 1000000`, db)
    expect(await ok('team', 'upgrade', '--db', lead)).toMatchObject({
      from: 4,
      to: SERVER_SCHEMA_VERSION,
    })
    const constraints = await postgres.server.admin$(
      `SELECT conname FROM pg_constraint WHERE conname LIKE '%\\_natural\\_%' ORDER BY 1`,
      db,
    )
    expect(constraints.rows.map((r) => (r as { conname: string }).conname)).toEqual(
      COLLECTION_TABLES.flatMap((t) =>
        (t.unique ?? []).map((_, i) => `${t.name}_natural_${i}`),
      ).sort(),
    )
  }, 120_000)

  it('takes as the final clustering the one placed later in the log, the same on both replicas', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const { rev } = await publishAndJoin(dir, lead)
    const final = (db: Db, reviewer: string, answer: string): void => {
      saveClustering(db, {
        question: 't1q1',
        role: 'final',
        reviewer,
        draft: { clusters: [{ name: answer, answers: [answer] }], invalid: [], fixes: {} },
        author: reviewer,
      })
    }
    // Both decide before hearing of the other; the lead's is placed first, the reviewer's after.
    withProject(lead, (db) => final(db, 'ann', 'keys'))
    withProject(rev, (db) => final(db, 'bob', 'phone'))
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', rev)
    await ok('team', 'sync', '--db', lead)
    const finalOf = (path: string): unknown =>
      clusterings(path, 't1q1').filter((c) => (c as { role: string }).role === 'final')
    expect(finalOf(lead)).toEqual([expect.objectContaining({ author: 'bob' })])
    expect(finalOf(rev)).toEqual(finalOf(lead))
    expect(clusterings(rev, 't1q1')).toEqual(clusterings(lead, 't1q1'))
  }, 120_000)

  it('refuses a server at the schema before collections travelled, and pushes nothing', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const { db } = await publishAndJoin(dir, lead)
    withProject(lead, (d) => clusteringOf(d, 't1q1', 'ann', 'keys'))
    await postgres.server.admin$('UPDATE winnow.schema_version SET version = 3', db)
    const refused = await cli('team', 'sync', '--db', lead, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      `has server schema 3; this Winnow needs ${SERVER_SCHEMA_VERSION}.`,
    )
    expect(await ok('team', 'status', '--db', lead)).toMatchObject({ pending: 1 })
  }, 120_000)

  it('upgrades a server at schema 3 by its lead: the collections arrive, a new member joins with them and a change set pushes', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const { db, number, rev, join: joinAs } = await publishAndJoin(dir, lead)
    await serverAtSchema3(postgres.server, db)

    // A reviewer is told to ask the lead, and its own upgrade is refused by the server's grants.
    const asked = await cli('team', 'sync', '--db', rev, '--json')
    expect(asked.code).toBe(1)
    expect(asked.stderr).toMatch(
      `has server schema 3; this Winnow needs ${SERVER_SCHEMA_VERSION}. Ask a lead`,
    )
    const refused = await cli('team', 'upgrade', '--db', rev, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/Only a lead can upgrade/)
    expect(refused.stderr).toMatch(/permission denied/)
    expect(await serverSchemaVersion(postgres.server, db)).toBe(3)

    const told = await cli('team', 'sync', '--db', lead, '--json')
    expect(told.stderr).toMatch(/Upgrade it with winnow team upgrade/)
    expect(await ok('team', 'upgrade', '--db', lead)).toMatchObject({
      from: 3,
      to: SERVER_SCHEMA_VERSION,
    })
    expect(await serverSchemaVersion(postgres.server, db)).toBe(SERVER_SCHEMA_VERSION)
    expect(await ok('team', 'upgrade', '--db', lead)).toMatchObject({
      from: SERVER_SCHEMA_VERSION,
      to: SERVER_SCHEMA_VERSION,
    })

    const second = await joinAs(`csecond${number}`)
    const tables = collectionTables(lead)
    expect(tables.protoqa_questions?.length).toBeGreaterThan(0)
    expect(tables.crowdaq_exam_attempts?.length).toBeGreaterThan(0)
    expect(collectionTables(second)).toEqual(tables)
    // A reviewer's clustering needs migration 4's policy to be let in.
    withProject(rev, (d) => clusteringOf(d, 't1q1', 'bob', 'wallet'))
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pushed: 1 })
    await ok('team', 'sync', '--db', second)
    expect(clusterings(second, 't1q1')).toContainEqual(
      expect.objectContaining({ author: 'bob', role: 'reviewer' }),
    )
  }, 120_000)

  it('lets a second lead upgrade an older server once the publisher has handed it to the leads; a reviewer stays refused by the server', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const t = await postgres.teamDatabase(dir)
    await t.publish(lead)
    const second = await t.join(lead, `clead2x${t.number}`, 'lead')
    const reviewerPassword = await t.addMember(lead, `crevx${t.number}`, 'reviewer')
    const reviewer = await (async () => {
      const path = join(dir, 'reviewer.winnow')
      await ok(
        'team',
        'join',
        '--server',
        t.url(`crevx${t.number}`),
        '--db',
        path,
        '--name',
        `crevx${t.number}`,
      )
      return path
    })()
    const leads = groupRoles(t.db).lead
    const owners = async (): Promise<string[]> =>
      (
        await postgres.server.admin$(
          `SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'winnow' ORDER BY 1`,
          t.db,
        )
      ).rows.map((r) => (r as { owner: string }).owner)
    expect(await owners()).toEqual([leads])

    // A server set up before the leads owned it: every object is its publisher's.
    await serverAtSchema3(postgres.server, t.db)
    await postgres.server.admin$(
      `REVOKE CREATE ON SCHEMA winnow FROM "${leads}";
       ALTER TABLE winnow.change_sets NO FORCE ROW LEVEL SECURITY;
       ALTER TABLE winnow.triage_claims NO FORCE ROW LEVEL SECURITY;
       DO $$ DECLARE o record; BEGIN
         FOR o IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n
             ON n.oid = c.relnamespace WHERE n.nspname = 'winnow' AND c.relkind IN ('r', 'S') LOOP
           EXECUTE format('ALTER %s winnow.%I OWNER TO "${t.lead}"',
             CASE o.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, o.relname);
         END LOOP;
         ALTER FUNCTION winnow.place_change_set() OWNER TO "${t.lead}";
         ALTER FUNCTION winnow.announce_change_sets() OWNER TO "${t.lead}";
       END $$;`,
      t.db,
    )
    const before = await cli('team', 'upgrade', '--db', second, '--json')
    expect(before.code).toBe(1)
    expect(before.stderr).toMatch(/the lead who published the team upgrades it this once/)
    expect(await serverSchemaVersion(postgres.server, t.db)).toBe(3)
    expect(await ok('team', 'upgrade', '--db', lead)).toMatchObject({ to: SERVER_SCHEMA_VERSION })
    expect(await owners()).toEqual([leads])

    // Older again, now the leads': the second lead upgrades it, and what it makes is the leads'.
    await serverAtSchema3(postgres.server, t.db)
    const refused = await cli('team', 'upgrade', '--db', reviewer, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/Only a lead can upgrade/)
    expect(await serverSchemaVersion(postgres.server, t.db)).toBe(3)
    expect(await ok('team', 'upgrade', '--db', second)).toMatchObject({
      from: 3,
      to: SERVER_SCHEMA_VERSION,
    })
    expect(await serverSchemaVersion(postgres.server, t.db)).toBe(SERVER_SCHEMA_VERSION)
    expect(await owners()).toEqual([leads])
    expect(collectionTables(second)).toEqual(collectionTables(lead))
    withProject(second, (d) => clusteringOf(d, 't1q1', 'ann', 'keys'))
    expect(await ok('team', 'sync', '--db', second)).toMatchObject({ pushed: 1 })

    // The reviewer's own connection cannot act as the leads nor make anything in the schema.
    const client = new pg.Client({ connectionString: t.url(`crevx${t.number}`, reviewerPassword) })
    await client.connect()
    try {
      const tries = [
        `SET ROLE "${leads}"`,
        'CREATE TABLE winnow.forged (a int)',
        'ALTER TABLE winnow.change_sets DISABLE ROW LEVEL SECURITY',
        'UPDATE winnow.schema_version SET version = 99',
      ]
      for (const statement of tries) {
        await expect(client.query(statement), statement).rejects.toMatchObject({ code: '42501' })
      }
    } finally {
      await client.end()
    }
    expect(await serverSchemaVersion(postgres.server, t.db)).toBe(SERVER_SCHEMA_VERSION)
  }, 120_000)

  it('brings two leads importing HALIE tasks at once to one state, their rows under ids of their own', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    await importCollections(lead, null)
    const { rev: other } = await publishAndJoin(dir, lead, 'lead')
    // Each folder has workers of its own, new to the team.
    writeHalieFolder(join(dir, 'halie1'), { sessionsPerTask: 2, blocksPerSession: 2, seed: 1 })
    writeHalieFolder(join(dir, 'halie2'), { sessionsPerTask: 2, blocksPerSession: 2, seed: 2 })
    const [first, second] = [...HALIE_TASKS].sort() as [string, string]
    for (const [task, db, folder] of [
      [first, lead, 'halie1'],
      [second, other, 'halie2'],
    ] as const) {
      cpSync(join(dir, folder, task), join(dir, task, task), { recursive: true })
      await ok('halie', 'import', join(dir, task), '--db', db)
    }
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', other)
    await ok('team', 'sync', '--db', lead)
    const tables = collectionTables(lead)
    expect(new Set(tables.halie_sessions?.map((row) => (row as unknown[])[1]))).toEqual(
      new Set([first, second]),
    )
    expect(collectionTables(other)).toEqual(tables)
    const workers = (path: string): unknown[] =>
      withProject(path, (d) => d.prepare('SELECT id, external_id FROM workers ORDER BY id').all())
    expect(workers(other)).toEqual(workers(lead))
  }, 120_000)

  it('carries what a HALIE import adds to sessions imported before to every replica, a member joining later too', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2 })
    const copy = (from: string, to: string): void =>
      cpSync(join(dir, 'halie', from), join(dir, to, from), { recursive: true })
    // Before publishing: every task's event blocks but question's, whose sessions come from their
    // raw logs alone (no worker, model or prompt yet).
    for (const task of HALIE_TASKS)
      copy(task === 'question' ? 'question/logs' : `${task}/event_blocks.csv`, 'first')
    await ok('halie', 'import', join(dir, 'first'), '--db', lead)
    const { rev, join: joinAs, number } = await publishAndJoin(dir, lead)

    // After: the surveys, crossword's accuracies, the other raw logs and question's event blocks,
    // all of sessions held already; then a file of metadata alone.
    for (const task of HALIE_TASKS) copy(`${task}/survey_responses.csv`, 'second')
    for (const file of ['crossword/accuracies.csv', 'metaphor/logs.zip', 'summarization/logs'])
      copy(file, 'second')
    copy('question/event_blocks.csv', 'second')
    await ok('halie', 'import', join(dir, 'second'), '--db', lead)
    const described = folder.sessions.find((s) => s.task === 'dialogue')
    if (!described) throw new Error('the folder has no dialogue session')
    mkdirSync(join(dir, 'third', 'dialogue'), { recursive: true })
    writeFileSync(
      join(dir, 'third', 'dialogue', 'metadata.jsonl'),
      JSON.stringify({ verification_code: described.id, start_timestamp: 1_654_000_000 }) + '\n',
    )
    await ok('halie', 'import', join(dir, 'third'), '--db', lead)
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 2 })
    await ok('team', 'sync', '--db', rev)

    const tables = collectionTables(lead)
    const sessions = withProject(lead, (d) =>
      d
        .prepare(
          `SELECT count(*) FILTER (WHERE worker_id IS NULL) AS keyless,
             count(*) FILTER (WHERE metadata IS NOT NULL) AS described,
             count(*) FILTER (WHERE started_at IS NOT NULL) AS started,
             (SELECT count(DISTINCT session_id) FROM halie_scores) AS scored
           FROM halie_sessions`,
        )
        .get(),
    )
    // Every session has its keys and scores now, some a start, one its metadata.
    expect(sessions).toMatchObject({ keyless: 0, described: 1, scored: folder.sessions.length })
    expect((sessions as { started: number }).started).toBeGreaterThan(1)
    expect(collectionTables(rev)).toEqual(tables)
    expect(collectionTables(await joinAs(`clate${number}`))).toEqual(tables)
  }, 120_000)

  it("lets the later-placed of two leads' HALIE imports stand on a session imported before, on every replica and a member joining later", async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2 })
    cpSync(join(dir, 'halie', 'dialogue'), join(dir, 'first', 'dialogue'), { recursive: true })
    await ok('halie', 'import', join(dir, 'first'), '--db', lead)
    const { db, number, rev: other, join: joinAs } = await publishAndJoin(dir, lead, 'lead')
    const [one, two] = folder.sessions.filter((s) => s.task === 'dialogue') as [
      (typeof folder.sessions)[number],
      (typeof folder.sessions)[number],
    ]

    /** Imports a metadata file setting the session's start; the import's global id. */
    const describe = async (path: string, name: string, session: string, start: number) => {
      mkdirSync(join(dir, name, 'dialogue'), { recursive: true })
      writeFileSync(
        join(dir, name, 'dialogue', 'metadata.jsonl'),
        JSON.stringify({ verification_code: session, start_timestamp: start }) + '\n',
      )
      await ok('halie', 'import', join(dir, name), '--db', path)
      return withProject(path, (d) =>
        d
          .prepare(`SELECT uid FROM change_sets WHERE kind = 'import' ORDER BY id DESC LIMIT 1`)
          .pluck()
          .get(),
      ) as string
    }
    const pullOnly = async (path: string): Promise<void> => {
      const replica = openProject(path)
      try {
        const server = await openTeamServer(requireTeam(replica))
        try {
          await pull(replica, server)
        } finally {
          await closeServer(server)
        }
      } finally {
        replica.close()
      }
    }
    // Two ways the second lead meets the first's change: pulled after its own push, or pulled
    // while its own import still waits to be pushed.
    const expected = new Map<string, string>()
    for (const [session, pullFirst] of [
      [one, false],
      [two, true],
    ] as const) {
      const mine = await describe(lead, `a-${session.id}`, session.id, 1_650_000_000)
      const theirs = await describe(other, `b-${session.id}`, session.id, 1_660_000_000)
      await ok('team', 'sync', '--db', lead)
      if (pullFirst) await pullOnly(other)
      await ok('team', 'sync', '--db', other)
      await ok('team', 'sync', '--db', lead)
      await ok('team', 'sync', '--db', other)
      const log = (
        await postgres.server.admin$(
          `SELECT replace(uid::text, '-', '') AS uid FROM winnow.change_sets ORDER BY seq`,
          db,
        )
      ).rows.map((r) => (r as { uid: string }).uid)
      const later = log.indexOf(mine) > log.indexOf(theirs) ? mine : theirs
      expect(log).toContain(mine)
      expect(log).toContain(theirs)
      expected.set(session.id, later === mine ? '1650000000' : '1660000000')
    }
    const starts = (path: string): Record<string, string> =>
      withProject(path, (d) =>
        Object.fromEntries(
          (
            d
              .prepare(
                `SELECT external_id AS id, json_extract(metadata, '$.start_timestamp') AS start
                 FROM halie_sessions WHERE external_id IN (?, ?)`,
              )
              .all(one.id, two.id) as { id: string; start: number }[]
          ).map((r) => [r.id, String(r.start)]),
        ),
      )
    const want = Object.fromEntries(expected)
    expect(starts(lead)).toEqual(want)
    expect(starts(other)).toEqual(want)
    expect(starts(await joinAs(`clater${number}`))).toEqual(want)
    expect(collectionTables(other)).toEqual(collectionTables(lead))
  }, 120_000)

  it('puts a worker a HALIE import sets on a session imported before on the server, so a member joining later holds it', async () => {
    const dir = tempDir()
    const lead = join(dir, 'lead.winnow')
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2 })
    // Before publishing, question's sessions from their raw logs alone: no worker yet.
    cpSync(join(dir, 'halie', 'question', 'logs'), join(dir, 'first', 'question', 'logs'), {
      recursive: true,
    })
    await ok('halie', 'import', join(dir, 'first'), '--db', lead)
    const { db, number, join: joinAs } = await publishAndJoin(dir, lead)
    cpSync(
      join(dir, 'halie', 'question', 'event_blocks.csv'),
      join(dir, 'second', 'question', 'event_blocks.csv'),
    )
    await ok('halie', 'import', join(dir, 'second'), '--db', lead)
    await ok('team', 'sync', '--db', lead)

    const sessions = folder.sessions
      .filter((s) => s.task === 'question')
      .map((s) => [s.id, s.worker])
      .sort()
    const onServer = (
      await postgres.server.admin$(`SELECT external_id FROM winnow.workers ORDER BY 1`, db)
    ).rows.map((r) => (r as { external_id: string }).external_id)
    expect(onServer).toEqual([...new Set(sessions.map(([, w]) => w))].sort())
    const named = (path: string): unknown[] =>
      withProject(path, (d) =>
        d
          .prepare(
            `SELECT s.external_id, w.external_id FROM halie_sessions s JOIN workers w ON w.id = s.worker_id
             WHERE s.task = 'question' ORDER BY 1`,
          )
          .raw()
          .all(),
      )
    expect(named(lead)).toEqual(sessions)
    const later = await joinAs(`cworker${number}`)
    expect(named(later)).toEqual(sessions)
    expect(collectionTables(later)).toEqual(collectionTables(lead))
  }, 120_000)
})
