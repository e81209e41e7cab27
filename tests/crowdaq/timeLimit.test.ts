import Database from 'better-sqlite3'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildExamReport } from '../../src/main/collections/crowdaq/report'
import { openProject } from '../../src/main/db/connection'
import { migrate } from '../../src/main/db/migrations'
import { examRow, setExamSettings } from '../../src/main/collections/crowdaq/db/specs'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { fixture } from './helpers'

const tempDir = useTempDir()

/** An exam assignment row as CROWDAQ exports it: made when the worker opened the exam. */
const row = (
  id: string,
  worker: string,
  times: { create_at?: string; deadline?: string; complete_time: string },
) => ({
  _id: id,
  exam_id: 'fx_exam',
  worker_id: worker,
  worker_platform: 'mturk',
  assignment_payload: [{ question_id: 'q1' }, { question_id: 'q2' }, { question_id: 'q3' }],
  response_payload: { q1: 'A', q2: 'B', q3: 'C' },
  ...times,
})

async function project(): Promise<{ db: string; dir: string }> {
  const dir = tempDir()
  const db = join(dir, 'p.winnow')
  const rows = join(dir, 'timed_rows.json')
  writeFileSync(
    rows,
    JSON.stringify({
      estimated_item_count: 3,
      payload: [
        // Ten minutes on an exam with a one-hour limit.
        row('t1', 'AWQUICK', {
          create_at: '2026-03-01T10:00:00.000Z',
          deadline: '2026-03-01T11:00:00.000Z',
          complete_time: '2026-03-01T10:10:00.000Z',
        }),
        // Submitted 90 minutes after opening it: past its deadline.
        row('t2', 'AWSLOW', {
          create_at: '2026-03-01T10:00:00.000Z',
          deadline: '2026-03-01T11:00:00.000Z',
          complete_time: '2026-03-01T11:30:00.000Z',
        }),
        // Only a deadline: CROWDAQ set it one hour after the start.
        row('t3', 'AWLATE', {
          deadline: '2026-03-01T11:00:00.000Z',
          complete_time: '2026-03-01T11:00:01.000Z',
        }),
      ],
    }),
  )
  for (const f of [fixture('exam.json'), rows, fixture('attempts.csv')]) {
    const r = await cli('crowdaq', 'import', f, '--db', db, '--json')
    expect(r.code, r.stderr).toBe(0)
  }
  return { db, dir }
}

const grades = async (db: string) =>
  (
    (await cli('exam', 'grade', 'fx_exam', '--db', db, '--json')).json as {
      attempts: { workerId: string; flags: string[] }[]
    }
  ).attempts.map((a) => [a.workerId, a.flags])

describe('the time limit', () => {
  it('flags attempts that took longer than the limit, from the export rows’ times', async () => {
    const { db } = await project()
    expect(await grades(db)).toEqual([
      ['AWFOUR', []],
      ['AWLATE', ['over-time']],
      ['AWQUICK', []],
      ['AWSLOW', ['over-time']],
    ])
    const p = openProject(db)
    try {
      const report = buildExamReport(p, 'fx_exam')
      // The CSV attempt carries no times: the report says it was not checked.
      expect(report.untimed).toBe(1)
      expect(report.workerRows.find((w) => w.workerId === 'AWSLOW')).toMatchObject({
        grades: [1],
        flags: [['over-time']],
        band: null,
      })
    } finally {
      p.close()
    }
  })

  it('is a setting: a longer limit lets the slow attempt stand; the deadline stays CROWDAQ’s', async () => {
    const { db } = await project()
    const p = openProject(db)
    try {
      const exam = examRow(p, 'fx_exam')
      if (!exam) throw new Error('no exam')
      setExamSettings(p, 'fx_exam', { ...exam.settings, timeLimitSeconds: 2 * 3600 })
    } finally {
      p.close()
    }
    expect(await grades(db)).toEqual([
      ['AWFOUR', []],
      ['AWLATE', ['over-time']],
      ['AWQUICK', []],
      ['AWSLOW', []],
    ])
  })

  it('learns the times of rows imported before they were kept, adding nothing', async () => {
    const dir = tempDir()
    const db = join(dir, 'p.winnow')
    const bare = join(dir, 'bare.json')
    const timed = join(dir, 'timed.json')
    const complete_time = '2026-03-01T11:30:00.000Z'
    writeFileSync(bare, JSON.stringify([row('t2', 'AWSLOW', { complete_time })]))
    writeFileSync(
      timed,
      JSON.stringify([row('t2', 'AWSLOW', { create_at: '2026-03-01T10:00:00Z', complete_time })]),
    )
    await cli('crowdaq', 'import', fixture('exam.json'), '--db', db)
    await cli('crowdaq', 'import', bare, '--db', db)
    expect(await grades(db)).toEqual([['AWSLOW', []]])
    const again = await cli('crowdaq', 'import', timed, '--db', db, '--json')
    expect(again.json).toMatchObject({ examAttempts: 0 })
    expect(await grades(db)).toEqual([['AWSLOW', ['over-time']]])
  })
})

describe('migration 013 (attempt start and deadline)', () => {
  it('keeps the attempts of an older project, their times unknown', async () => {
    const path = join(tempDir(), 'old.winnow')
    const db = new Database(path)
    migrate(db, path, 12)
    // As Winnow wrote an attempt before it kept start times.
    db.exec(`
      INSERT INTO change_sets (id, kind, author, description, created_at)
        VALUES (1, 'import', 'test', '', 0);
      INSERT INTO workers (id, external_id) VALUES (1, 'AWONE');
      INSERT INTO crowdaq_exams (id, questions_per_attempt, passing_grade, attempts_allowed,
          time_limit_seconds, bands, change_set_id)
        VALUES ('fx_exam', 0, 1, 1, 3600, '[]', 1);
      INSERT INTO crowdaq_exam_attempts (id, exam_id, worker_id, source, source_key, completed_at,
          source_order, change_set_id)
        VALUES (1, 'fx_exam', 1, 'crowdaq', 'crowdaq:a1', 1767261600, 0, 1);
    `)
    const rows = () => db.prepare('SELECT * FROM crowdaq_exam_attempts ORDER BY id').all()
    const before = rows()
    migrate(db, path, 13)
    expect(rows()).toEqual(
      before.map((r) => ({ ...(r as object), started_at: null, deadline: null })),
    )
    db.close()
    expect(await grades(path)).toEqual([['AWONE', []]])
  })
})
