import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { drawAudit, drawMore, judge } from '../../src/main/audits/audits'
import { changeSetting } from '../../src/main/changes/settings'
import { saveExamSettings, saveQuestionSet } from '../../src/main/collections/crowdaq/authoring'
import { type Db, openProject } from '../../src/main/db/connection'
import { examRow } from '../../src/main/collections/crowdaq/db/specs'
import { createTeamTables } from '../../src/main/db/queries/team/state'
import { recomputeAll } from '../../src/main/ratings/effective'
import { revertChangeSet, undo } from '../../src/main/ratings/revert'
import { encodeChangeSet } from '../../src/main/team/codecs'
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

    const made = write
      .prepare(
        `SELECT id, kind, author, created_at AS createdAt, description, reverts, uid
         FROM change_sets WHERE id > ? ORDER BY id`,
      )
      .all(start) as {
      id: number
      kind: string
      author: string
      createdAt: number
      description: string
      reverts: number | null
      uid: string
    }[]
    expect(new Set(made.map((c) => c.kind))).toEqual(
      new Set(['manual', 'revert', 'triage', 'audit', 'setting', 'crowdaq']),
    )
    // Carried as the log carries them: JSON.
    const entries = made.map((c, i) => ({
      uid: c.uid,
      seq: i + 1,
      recordedAt: c.createdAt,
      member: 'ann',
      kind: c.kind,
      author: c.author,
      createdAt: c.createdAt,
      description: c.description,
      payload: JSON.parse(JSON.stringify(encodeChangeSet(write, c))) as unknown,
    }))

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
