import { copyFileSync, cpSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { drawAudit, drawMore, judge } from '../../src/main/audits/audits'
import { changeSetting } from '../../src/main/changes/settings'
import { saveExamSettings, saveQuestionSet } from '../../src/main/collections/crowdaq/authoring'
import { type Db, openProject } from '../../src/main/db/connection'
import { examRow } from '../../src/main/collections/crowdaq/db/specs'
import { type PendingChangeSet, createTeamTables } from '../../src/main/db/queries/team/state'
import { recomputeAll } from '../../src/main/ratings/effective'
import { revertChangeSet, undo } from '../../src/main/ratings/revert'
import { encodeChangeSet, logEntry } from '../../src/main/team/codecs'
import { applyBody, insertHeader } from '../../src/main/team/sync'
import {
  markAnnotation,
  markReviewed,
  queueFeedback,
  startQueue,
} from '../../src/main/triage/queue'
import { cli } from '../helpers/cli'
import { releaseCsv } from '../helpers/glucose'
import { useTempDir } from '../helpers/tmp'
import { writeHalieFolder } from '../helpers/halie'
import { HALIE_TASKS } from '../../src/shared/halie/tasks'
import { rateBlocks, rateSessions } from '../../src/main/collections/halie/ratings'
import { saveClustering } from '../../src/main/collections/protoqa/clusterings'
import { currentClusterings } from '../../src/main/collections/protoqa/db/clusterings'
import { questionRow } from '../../src/main/collections/protoqa/db/questions'

const root = join(import.meta.dirname, '..', '..')

/**
 * Every kind of change set that travels, encoded on one replica, carried as JSON and applied on a
 * copy of the project as a pull applies it: both end with the same rows. No server is needed.
 */
const exam = {
  exam_id: 'warmup',
  num_of_questions: 1,
  passing_grade: 0.5,
  max_attempts: 2,
  time_limit_in_seconds: 600,
  question_set: [
    {
      type: 'multiple-choice',
      question_id: 'q1',
      question: { question_text: 'Is it?', options: { A: 'yes', B: 'no' } },
      answer: 'A',
    },
  ],
}

/** What the app reads, without local ids of queues, audits or change sets. */
function state(db: Db): Record<string, unknown[]> {
  const q = (text: string): unknown[] => db.prepare(text).all()
  return {
    ratings: q('SELECT id, rating FROM annotations ORDER BY id'),
    workerRatings: q(
      'SELECT worker_id, value, effective_from, recorded_at, note FROM worker_ratings ORDER BY recorded_at, id',
    ),
    itemRatings: q(
      'SELECT annotation_id, value, recorded_at FROM item_ratings ORDER BY recorded_at, annotation_id',
    ),
    retractions: q('SELECT target, retracted, recorded_at FROM rating_retractions ORDER BY id'),
    queues: q(
      'SELECT from_day, to_day, share, seed, author, created_at, finished_at FROM triage_queues ORDER BY created_at',
    ),
    items: q(
      `SELECT q.created_at, i.position, i.submission_id, i.feedback, i.reviewed_at FROM triage_items i
       JOIN triage_queues q ON q.id = i.queue_id ORDER BY q.created_at, i.position`,
    ),
    marks: q(
      `SELECT q.created_at, m.annotation_id, m.mark, m.note, m.marked_at FROM triage_marks m
       JOIN triage_queues q ON q.id = m.queue_id ORDER BY q.created_at, m.annotation_id`,
    ),
    audits: q(
      'SELECT name, filter, seed, target_margin, author, created_at FROM audits ORDER BY created_at',
    ),
    auditItems: q(
      `SELECT a.created_at, i.position, i.annotation_id, i.verdict, i.note, i.judged_at
       FROM audit_items i JOIN audits a ON a.id = i.audit_id ORDER BY a.created_at, i.position`,
    ),
    settings: q('SELECT key, value FROM settings ORDER BY key'),
    exams: q(
      `SELECT id, questions_per_attempt, passing_grade, attempts_allowed, time_limit_seconds
       FROM crowdaq_exams ORDER BY id`,
    ),
    entries: q(
      'SELECT subject, key, value FROM change_entries WHERE change_set_id IS NOT NULL ORDER BY id',
    ),
    changeSets: q(
      'SELECT uid, kind, author, created_at, description FROM change_sets ORDER BY created_at',
    ),
  }
}

/** The change sets of `db` after local id `after`, oldest first, as a push reads them. */
function changeSetsAfter(db: Db, after: number): PendingChangeSet[] {
  return db
    .prepare(
      `SELECT id, kind, author, created_at AS createdAt, description, reverts, uid
       FROM change_sets WHERE id > ? ORDER BY id`,
    )
    .all(after) as PendingChangeSet[]
}

/** Change sets of `db` as a pull reads them from the log: placed in order, their bodies as JSON. */
function asPulled(db: Db, made: readonly PendingChangeSet[]) {
  return made.map((c, i) => ({
    ...logEntry(db, c, JSON.parse(JSON.stringify(encodeChangeSet(db, c))) as unknown),
    seq: i + 1,
    recordedAt: c.createdAt,
    member: 'ann',
  }))
}

describe('team codecs', () => {
  const tempDir = useTempDir()

  it('carry every kind of change set to another replica, which ends with the same rows', async () => {
    const dir = tempDir()
    const origin = join(dir, 'origin.winnow')
    const imported = await cli('import', releaseCsv(dir, 'a.csv', 20, 3), '--db', origin, '--json')
    expect(imported.code, imported.stderr).toBe(0)
    const copy = join(dir, 'copy.winnow')
    copyFileSync(origin, copy)

    const db = openProject(origin)
    const start = db.prepare('SELECT max(id) FROM change_sets').pluck().get() as number
    const [annotation, other] = db
      .prepare('SELECT id FROM annotations ORDER BY id LIMIT 2')
      .pluck()
      .all() as number[]
    const worker = db
      .prepare('SELECT external_id FROM workers ORDER BY id LIMIT 1')
      .pluck()
      .get() as string
    const day = db
      .prepare("SELECT strftime('%Y-%m-%d', min(submitted_at), 'unixepoch') FROM annotations")
      .pluck()
      .get() as string
    db.close()
    const run = async (...argv: string[]): Promise<void> => {
      const result = await cli(...argv, '--db', origin, '--json')
      expect(result.code, result.stderr).toBe(0)
    }
    // Ratings: an item, a submission, a worker, and a revert of one.
    await run('rate', '--annotation', String(annotation), '--rating', '2')
    await run('rate', '--submission', String(Math.floor((other ?? 0) / 16)), '--rating', '-1')
    await run('rate', '--worker', worker, '--rating', '1', '--from', '2000-01-01')
    const write = openProject(origin)
    revertChangeSet(write, start + 1, { author: 'ann' })
    // Triage: a queue, a mark undone and made again, feedback, a review.
    const queue = startQueue(write, { from: day, to: day, share: 1, seed: 4, author: 'ann' })
    const queued = queue.items[0]?.annotationIds[0] ?? 0
    markAnnotation(write, { queueId: queue.id, annotationId: queued, mark: 'bad', author: 'ann' })
    undo(write, 'ann')
    markAnnotation(write, {
      queueId: queue.id,
      annotationId: queued,
      mark: 'needs-work',
      note: 'typo',
      author: 'ann',
    })
    queueFeedback(write, { queueId: queue.id, position: 1, feedback: 'Thanks', author: 'ann' })
    markReviewed(write, { queueId: queue.id, position: 1, reviewed: true, author: 'ann' })
    // Audits: drawn, more drawn, a verdict.
    const audit = drawAudit(write, { name: 'spot', filter: {}, n: 3, seed: 2, author: 'ann' })
    drawMore(write, audit.result.id, 2, 'ann')
    const item = audit.items[1]?.annotationId ?? 0
    judge(write, {
      auditId: audit.result.id,
      annotationId: item,
      verdict: 'no',
      note: 'off',
      author: 'ann',
    })
    // A setting, and a revert of it; CROWDAQ: an exam written in the app, its settings edited.
    const setting = changeSetting(write, {
      key: 'flags.thresholds',
      value: { short: 3 },
      author: 'ann',
      description: 'Flag thresholds',
    })
    changeSetting(write, {
      key: 'flags.thresholds',
      value: { short: 5 },
      author: 'ann',
      description: 'Flag thresholds',
    })
    revertChangeSet(write, setting ?? 0, { author: 'ann' })
    expect(saveQuestionSet(write, 'exam', exam, { create: true, author: 'ann' }).problems).toEqual(
      [],
    )
    const settings = { ...(examRow(write, 'warmup')?.settings ?? fail()), passingGrade: 0.8 }
    saveExamSettings(write, 'warmup', settings, 'ann')

    const made = changeSetsAfter(write, start)
    expect(new Set(made.map((c) => c.kind))).toEqual(
      new Set(['manual', 'revert', 'triage', 'audit', 'setting', 'crowdaq']),
    )
    // Carried as the log carries them: JSON.
    const entries = asPulled(write, made)

    const replica = openProject(copy)
    replica
      .transaction(() => {
        createTeamTables(replica)
        for (const entry of entries) applyBody(replica, insertHeader(replica, entry), entry)
        recomputeAll(replica)
      })
      .immediate()
    expect(state(replica)).toEqual(state(write))
    expect(examRow(replica, 'warmup')?.settings.passingGrade).toBe(0.8)
    write.close()
    replica.close()
  })
})

function fail(): never {
  throw new Error('missing')
}

describe('change sets of collections on a replica whose rows have other ids', () => {
  const tempDir = useTempDir()

  /** Carries the change sets made after local id `after` from `from` to `to`, as a pull does. */
  function carry(from: Db, to: Db, after: number): void {
    const made = changeSetsAfter(from, after)
    to.transaction(() => {
      createTeamTables(to)
      for (const entry of asPulled(from, made)) applyBody(to, insertHeader(to, entry), entry)
    }).immediate()
  }

  const lastId = (db: Db): number =>
    db.prepare('SELECT coalesce(max(id), 0) FROM change_sets').pluck().get() as number

  it('names a HALIE session and block by task, external id and line, not by row id', async () => {
    const dir = tempDir()
    writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, blocksPerSession: 2, logs: false })
    // The other project imports the last task first, so its rows take other ids.
    const last = [...HALIE_TASKS].sort().at(-1) as string
    cpSync(join(dir, 'halie', last), join(dir, 'first', last), { recursive: true })
    const [a, b] = [join(dir, 'a.winnow'), join(dir, 'b.winnow')]
    expect((await cli('halie', 'import', join(dir, 'halie'), '--db', a)).code).toBe(0)
    expect((await cli('halie', 'import', join(dir, 'first'), '--db', b)).code).toBe(0)
    expect((await cli('halie', 'import', join(dir, 'halie'), '--db', b)).code).toBe(0)
    const write = openProject(a)
    const replica = openProject(b)
    const idOf = (db: Db, task: string, external: string): number =>
      db
        .prepare('SELECT id FROM halie_sessions WHERE task = ? AND external_id = ?')
        .pluck()
        .get(task, external) as number
    const session = write
      .prepare(
        `SELECT id, task, external_id AS external FROM halie_sessions WHERE task <> ?
         ORDER BY id LIMIT 1`,
      )
      .get(last) as { id: number; task: string; external: string }
    expect(idOf(replica, session.task, session.external)).not.toBe(session.id)
    const block = write
      .prepare(
        `SELECT r.id, t.task, r.line FROM halie_rows r JOIN halie_tables t ON t.id = r.table_id
         WHERE t.kind = 'event_blocks' AND t.task <> ? ORDER BY r.id DESC LIMIT 1`,
      )
      .get(last) as { id: number; task: string; line: number }
    const start = lastId(write)
    rateSessions(write, [session.id], { value: -1, author: 'ann' })
    rateBlocks(write, [block.id], { value: 1, author: 'ann' })
    carry(write, replica, start)
    const rated = (db: Db): unknown[] =>
      db
        .prepare(
          `SELECT 'session', task, external_id, rating FROM halie_sessions WHERE rating IS NOT NULL
           UNION ALL SELECT 'block', t.task, r.line, r.rating FROM halie_rows r
             JOIN halie_tables t ON t.id = r.table_id WHERE r.rating IS NOT NULL ORDER BY 1, 2, 3`,
        )
        .raw()
        .all()
    expect(rated(replica)).toEqual(rated(write))
    expect(rated(replica)).toEqual([
      ['block', block.task, block.line, 1],
      ['session', session.task, session.external, -1],
    ])
    write.close()
    replica.close()
  })

  it('names a ProtoQA clustering by its question and answers, not by row id', async () => {
    const dir = tempDir()
    const [a, b] = [join(dir, 'a.winnow'), join(dir, 'b.winnow')]
    const protoqa = (name: string): string => join(root, 'tests/fixtures/protoqa', name)
    expect((await cli('protoqa', 'import', protoqa('questions.jsonl'), '--db', a)).code).toBe(0)
    expect((await cli('protoqa', 'import', protoqa('answers.csv'), '--db', b)).code).toBe(0)
    expect((await cli('protoqa', 'import', protoqa('questions.jsonl'), '--db', b)).code).toBe(0)
    const write = openProject(a)
    const replica = openProject(b)
    expect(questionRow(replica, 't1q1')?.id).not.toBe(questionRow(write, 't1q1')?.id)
    const start = lastId(write)
    const draft = {
      clusters: [{ name: 'lost keys', answers: ['keys', 'car keys'] }],
      invalid: ['asdf'],
      fixes: { phone: 'a phone' },
    }
    saveClustering(write, {
      question: 't1q1',
      role: 'reviewer',
      reviewer: 'ann',
      draft,
      author: 'ann',
    })
    saveClustering(write, {
      question: 't1q1',
      role: 'final',
      reviewer: 'ann',
      draft,
      author: 'ann',
    })
    carry(write, replica, start)
    // Each project imported the file at its own time: the imported clustering's time differs.
    const held = (db: Db): unknown[] =>
      currentClusterings(db, questionRow(db, 't1q1')?.id ?? -1).map(({ id: _, ...c }) =>
        c.role === 'imported' ? { ...c, recordedAt: 0 } : c,
      )
    expect(held(replica)).toEqual(held(write))
    expect(held(replica)).toContainEqual(expect.objectContaining({ role: 'final', author: 'ann' }))
    write.close()
    replica.close()
  })
})
