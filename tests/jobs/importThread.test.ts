import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { InputError } from '../../src/main/importers/errors'
import type { ImportWork } from '../../src/main/importers/intoProject'
import { runImport } from '../../src/main/tasks/importJob'
import type { TaskThread } from '../../src/main/tasks/threadTasks'
import type { JobContext, JobReport } from '../../src/main/jobs/manager'
import { UserError } from '../../src/shared/contract/errors'
import { releaseCsv } from '../helpers/glucose'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'

const fixtures = join(import.meta.dirname, '../fixtures/protoqa')

/** An empty project file at `dir/name`. */
function emptyProject(dir: string, name: string): string {
  const path = join(dir, name)
  openProject(path, { create: true }).close()
  return path
}

/** What a job hands its work: a cancel signal and a report that keeps every report. */
function jobContext(): { context: JobContext; reports: JobReport[]; cancel: () => void } {
  const controller = new AbortController()
  const reports: JobReport[] = []
  return {
    context: { signal: controller.signal, report: (r) => reports.push(r) },
    reports,
    cancel: () => controller.abort(),
  }
}

/** The imported work as rows, without ids or times of recording. */
function imported(db: Db): unknown {
  return {
    submissions: db
      .prepare('SELECT source_key, submitted_at FROM submissions ORDER BY source_key')
      .all(),
    annotations: db
      .prepare(
        `SELECT s.source_key, a.dimension, a.rating, t.specific_nl, t.general_nl
         FROM annotations a JOIN submissions s ON s.id = a.submission_id
         JOIN annotation_texts t ON t.annotation_id = a.id
         ORDER BY s.source_key, a.dimension`,
      )
      .all(),
    waitingForSearch: db.prepare('SELECT count(*) FROM search_backlog').pluck().get(),
    changeSets: db.prepare('SELECT kind, author FROM change_sets ORDER BY id').all(),
  }
}

const count = (db: Db, table: 'submissions' | 'annotations'): number =>
  db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number

describe('an import on the import thread', () => {
  const tempDir = useTempDir()

  it('writes the GLUCOSE rows into the project file, as the calling thread does', async () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 300, 7)
    const work: ImportWork = { files: [{ path: csv, name: 'release.csv' }], options: {} }
    const outcome: Partial<Record<TaskThread, { rows: unknown; reports: JobReport[] }>> = {}
    for (const thread of ['thread', 'here'] as const) {
      const project = emptyProject(dir, `${thread}.winnow`)
      const { context, reports } = jobContext()
      const result = await runImport(project, work, context, thread)
      expect(result.submissions).toBe(300)
      withProject(project, (db) => {
        expect(count(db, 'submissions')).toBe(300)
        expect(count(db, 'annotations')).toBe(result.annotations)
        outcome[thread] = { rows: imported(db), reports }
      })
    }
    expect(outcome.thread?.rows).toEqual(outcome.here?.rows)
    // The job hears the steps before the commit, then the indexing.
    for (const { reports } of Object.values(outcome)) {
      expect(reports.map((r) => r.detail)).toContain('Building worker rating timelines')
      const indexing = reports.filter((r) => r.unit === 'annotations')
      expect(indexing.at(-1)).toMatchObject({
        detail: 'Indexing text for search',
        cancel: { label: 'Stop indexing' },
      })
      expect(indexing.at(-1)?.done).toBe(indexing.at(-1)?.total)
    }
    expect(outcome.thread?.reports.map((r) => r.detail)).toEqual(
      outcome.here?.reports.map((r) => r.detail),
    )
  })

  it('fails on a bad row with its file, line and column, and imports nothing', async () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 20, 3)
    const lines = readFileSync(csv, 'utf8').split('\n')
    const fields = (lines[5] as string).split(',')
    const before = fields.slice(0, 4).join(',') + ','
    fields[4] = '7'
    lines[5] = fields.join(',')
    writeFileSync(csv, lines.join('\n'))
    const project = emptyProject(dir, 'p.winnow')
    const failure = await runImport(
      project,
      { files: [{ path: csv }], options: {} },
      jobContext().context,
      'thread',
    ).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    // It crossed from the thread as the error's information, not as the importer's own class.
    expect(failure).toBeInstanceOf(UserError)
    expect(failure).not.toBeInstanceOf(InputError)
    const { file, line, column, field } = (failure as UserError).info
    expect({ file, line, column, field }).toEqual({
      file: 'release.csv',
      line: 6,
      column: before.length + 1,
      field: 'worker_quality_rating',
    })
    withProject(project, (db) => expect(count(db, 'submissions')).toBe(0))
  })

  it('stops at a cancel and leaves the project as it was', async () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 50, 5)
    const project = emptyProject(dir, 'p.winnow')
    const { context, cancel } = jobContext()
    cancel()
    const failure = await runImport(
      project,
      { files: [{ path: csv }], options: {} },
      context,
      'thread',
    ).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect((failure as UserError).info).toMatchObject({
      type: 'cancelled',
      message: 'Cancelled; nothing was changed.',
    })
    withProject(project, (db) => {
      expect(count(db, 'submissions')).toBe(0)
      expect(db.prepare('SELECT count(*) FROM change_sets').pluck().get()).toBe(0)
    })
  })

  it('imports ProtoQA files on the same thread', async () => {
    const dir = tempDir()
    const project = emptyProject(dir, 'p.winnow')
    const result = await runImport(
      project,
      {
        collection: 'protoqa',
        files: [{ path: join(fixtures, 'questions.jsonl') }],
        options: { author: 'tester' },
      },
      jobContext().context,
      'thread',
    )
    expect(result).toMatchObject({ questions: 2, answers: 11, clusters: 7, responses: 0 })
    withProject(project, (db) =>
      expect(db.prepare('SELECT count(*) FROM protoqa_questions').pluck().get()).toBe(2),
    )
  })
})
