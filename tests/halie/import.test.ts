import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importHalie } from '../../src/main/collections/halie/import'
import { halieSourcesIn } from '../../src/main/collections/halie/read'
import { all, openProject } from '../../src/main/db/connection'
import { sql } from '../../src/main/db/sql'
import { openCsv } from '../../src/main/importers/csv'
import { runImport } from '../../src/main/tasks/importJob'
import type { JobContext } from '../../src/main/jobs/manager'
import { UserError } from '../../src/shared/contract/errors'
import { HALIE_TASKS } from '../../src/shared/halie/tasks'
import { cli } from '../helpers/cli'
import { writeHalieFolder } from '../helpers/halie'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()
const SAMPLES = join(__dirname, '../../../shared/data/halie')

/** Rows per table, so a refused import can be shown to change nothing. */
function tableCounts(db: string): Record<string, number> {
  return withProject(db, (p) =>
    Object.fromEntries(
      [
        'halie_sessions',
        'halie_tables',
        'halie_rows',
        'halie_scores',
        'halie_logs',
        'halie_log_events',
        'source_files',
        'change_sets',
        'workers',
      ].map((t) => [t, p.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number]),
    ),
  )
}

function readCsvRows(path: string): string[][] {
  const csv = openCsv(path)
  const rows: string[][] = []
  for (let r = csv.next(); r; r = csv.next()) rows.push(r.fields)
  csv.close()
  return rows
}

async function importFolder(dir: string, db: string) {
  return cli('halie', 'import', dir, '--db', db, '--json')
}

describe('winnow halie import', () => {
  it('imports every task’s tables and raw logs (files and a zip), printing the counts per task', async () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'))
    const db = join(dir, 'p.winnow')
    const run = await importFolder(folder.dir, db)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.json).toEqual({ tasks: folder.counts })
    expect(Object.keys(folder.counts)).toEqual([...HALIE_TASKS])
    expect(folder.counts.metaphor.logs).toBe(4)
  })

  it('joins the tables on session_id: each session’s worker, model, prompt, blocks, queries, minutes, accuracy and survey scores', async () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { seed: 3, sessionsPerTask: 5 })
    const db = join(dir, 'p.winnow')
    expect((await importFolder(folder.dir, db)).code).toBe(0)
    const rows = withProject(db, (p) =>
      all<{
        task: string
        id: string
        worker: string
        model: string
        prompt: string
        blocks: number
        queries: number
        elapsed: number
        accuracy: number | null
        scores: string | null
        events: number | null
      }>(
        p,
        sql`SELECT s.task, s.external_id AS id, w.external_id AS worker, s.model, s.prompt, s.blocks,
              s.queries, s.elapsed_minutes AS elapsed, s.accuracy,
              (SELECT json_group_object(name, value) FROM halie_scores WHERE session_id = s.id) AS scores,
              l.events
            FROM halie_sessions AS s JOIN workers AS w ON w.id = s.worker_id
            LEFT JOIN halie_logs AS l ON l.session_id = s.id`,
      ),
    )
    expect(rows.length).toBe(folder.sessions.length)
    for (const expected of folder.sessions) {
      const row = rows.find((r) => r.task === expected.task && r.id === expected.id)
      expect(row, `${expected.task} ${expected.id}`).toBeDefined()
      if (!row) continue
      expect([row.worker, row.model, row.prompt, row.blocks, row.queries]).toEqual([
        expected.worker,
        expected.model,
        expected.prompt,
        expected.blocks,
        expected.queries,
      ])
      expect(row.elapsed).toBeCloseTo(expected.elapsedMinutes, 9)
      if (expected.accuracy === null) expect(row.accuracy).toBeNull()
      else expect(row.accuracy).toBeCloseTo(expected.accuracy, 12)
      const scores = JSON.parse(row.scores ?? '{}') as Record<string, number>
      expect(Object.keys(scores).sort()).toEqual(Object.keys(expected.scores).sort())
      for (const [name, value] of Object.entries(expected.scores))
        expect(scores[name]).toBeCloseTo(value, 12)
      const log = folder.logs.find((l) => l.session === expected.id)
      expect(row.events).toBe(log ? log.lines.length : null)
    }
  })

  it('keeps every table cell for cell, with its header, and every log line as written', async () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { seed: 5 })
    const db = join(dir, 'p.winnow')
    expect((await importFolder(folder.dir, db)).code).toBe(0)
    withProject(db, (p) => {
      for (const task of HALIE_TASKS) {
        for (const kind of ['event_blocks', 'survey_responses', 'accuracies'] as const) {
          const file = join(folder.dir, task, `${kind}.csv`)
          if (!existsSync(file)) continue
          const [header, ...rows] = readCsvRows(file)
          const stored = all<{ header: string; cells: string }>(
            p,
            sql`SELECT t.header, r.cells FROM halie_rows AS r JOIN halie_tables AS t ON t.id = r.table_id
                WHERE t.task = ${task} AND t.kind = ${kind} ORDER BY r.line`,
          )
          expect(JSON.parse(stored[0]?.header ?? '[]')).toEqual(header)
          expect(stored.map((s) => JSON.parse(s.cells) as string[])).toEqual(rows)
        }
      }
      for (const log of folder.logs) {
        const lines = all<{ line: string }>(
          p,
          sql`SELECT e.line FROM halie_log_events AS e JOIN halie_logs AS l ON l.id = e.log_id
              JOIN halie_sessions AS s ON s.id = l.session_id WHERE s.external_id = ${log.session}
              ORDER BY e.seq`,
        ).map((r) => r.line)
        expect(lines).toEqual(log.lines)
      }
    })
  })

  it('adds nothing when the same folder is imported again', async () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'))
    const db = join(dir, 'p.winnow')
    await importFolder(folder.dir, db)
    const before = tableCounts(db)
    const again = await importFolder(folder.dir, db)
    expect(again.code).toBe(0)
    const zero = { sessions: 0, eventBlocks: 0, surveyResponses: 0, logs: 0 }
    expect(again.json).toEqual({ tasks: Object.fromEntries(HALIE_TASKS.map((t) => [t, zero])) })
    expect(tableCounts(db)).toEqual(before)
  })

  it.skipIf(!existsSync(SAMPLES))('imports the HALIE samples (needs ../shared/data)', async () => {
    const dir = tempDir()
    const db = join(dir, 'p.winnow')
    const run = await importFolder(SAMPLES, db)
    expect(run.code).toBe(0)
    const counts = (run.json as { tasks: Record<string, { eventBlocks: number; logs: number }> })
      .tasks
    for (const task of HALIE_TASKS) expect(counts[task]?.eventBlocks).toBe(15)
    expect(counts.question?.logs).toBe(1)
  })
})

/** Where field `index` starts on a one-line CSV record (1-based), read plainly. */
function fieldStart(line: string, index: number): number {
  let field = 0
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    if (field === index) return i + 1
    const ch = line[i]
    if (ch === '"') quoted = !quoted
    else if (ch === ',' && !quoted) field++
  }
  return line.length + 1
}

function editLine(file: string, n: number, edit: (line: string) => string): string {
  const lines = readFileSync(file, 'utf8').split('\n')
  lines[n - 1] = edit(lines[n - 1] as string)
  writeFileSync(file, lines.join('\n'))
  return lines[n - 1] as string
}

describe('a HALIE import refuses bad input whole, naming file, line, column and field', () => {
  async function refused(edit: (dir: string) => void): Promise<string> {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'))
    const db = join(dir, 'p.winnow')
    openProject(db, { create: true }).close()
    const before = tableCounts(db)
    edit(folder.dir)
    const run = await importFolder(folder.dir, db)
    expect(run.code).toBe(1)
    expect(tableCounts(db)).toEqual(before)
    return run.stderr.trim()
  }

  it('a list cell that is not a Python list', async () => {
    let line = ''
    const stderr = await refused((dir) => {
      line = editLine(join(dir, 'question', 'event_blocks.csv'), 3, (l) =>
        l.replace("['close;question']", "['close;question'"),
      )
    })
    const column = fieldStart(line, 18)
    expect(stderr).toContain(
      `question/event_blocks.csv:3:${column}: user_query_types: the list is not closed`,
    )
  })

  it('a True/False cell holding something else, on the second line of its record', async () => {
    let text = ''
    const stderr = await refused((dir) => {
      const file = join(dir, 'summarization', 'event_blocks.csv')
      text = readFileSync(file, 'utf8').replace(',False,True,', ',false,True,')
      writeFileSync(file, text)
    })
    // The record starts on line 2; its document cell holds a line break, so the cell is on line 3.
    const at = text.indexOf(',false,') + 1
    const line = text.slice(0, at).split('\n').length
    const column = at - text.lastIndexOf('\n', at - 1)
    expect(line).toBe(3)
    expect(stderr).toContain(
      `summarization/event_blocks.csv:${line}:${column}: original_consistency: expected True or False`,
    )
  })

  it('a row with fewer cells than the header', async () => {
    const stderr = await refused((dir) => {
      editLine(join(dir, 'metaphor', 'survey_responses.csv'), 4, (l) =>
        l.slice(0, l.lastIndexOf(',')),
      )
    })
    expect(stderr).toMatch(
      /metaphor\/survey_responses\.csv:4:\d+: reuse: expected 11 cells as in the header, found 10/,
    )
  })

  it('a session whose worker differs between its tables', async () => {
    const stderr = await refused((dir) => {
      editLine(join(dir, 'metaphor', 'survey_responses.csv'), 2, (l) => {
        const cells = l.split(',')
        cells[1] = 'f'.repeat(32)
        return cells.join(',')
      })
    })
    expect(stderr).toMatch(
      /metaphor\/survey_responses\.csv:2: worker_id: session \w+ has worker_id "\w+" in metaphor\/event_blocks\.csv:2, here "f{32}"/,
    )
  })

  it('a table without a session_id column', async () => {
    const stderr = await refused((dir) => {
      editLine(join(dir, 'dialogue', 'event_blocks.csv'), 1, (l) =>
        l.replace('session_id', 'session'),
      )
    })
    expect(stderr).toContain('dialogue/event_blocks.csv:1: the header has no session_id column')
  })

  it('a raw log line that is not an event', async () => {
    const stderr = await refused((dir) => {
      const logs = halieSourcesIn(dir).filter((s) => s.relPath.startsWith('question/logs/'))
      const file = logs[0]?.path as string
      editLine(file, 5, (l) =>
        l
          .replace('"eventSource":"user"', '"eventSource":"robot"')
          .replace('"eventSource":"api"', '"eventSource":"robot"'),
      )
    })
    expect(stderr).toMatch(/question\/logs\/\w+\.jsonl:5:\d+: eventSource: expected user or api/)
  })

  it('a raw log line that is not JSON', async () => {
    const stderr = await refused((dir) => {
      const logs = halieSourcesIn(dir).filter((s) => s.relPath.startsWith('summarization/logs/'))
      appendFileSync(logs[1]?.path as string, '{"eventName": \n')
    })
    expect(stderr).toMatch(/summarization\/logs\/\w+\.jsonl:61:\d+: not valid JSON/)
  })
})

describe('the HALIE import as a job', () => {
  it('runs on the import thread’s path with progress, and cancel leaves the project as it was', async () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 6, logEvents: 400 })
    const db = join(dir, 'p.winnow')
    openProject(db, { create: true }).close()
    const before = tableCounts(db)
    const controller = new AbortController()
    const reports: unknown[] = []
    const context: JobContext = {
      signal: controller.signal,
      report: (r) => {
        reports.push(r)
        controller.abort()
      },
    }
    const sources = halieSourcesIn(folder.dir)
    const work = { collection: 'halie' as const, sources, options: { author: 'test' } }
    await expect(runImport(db, work, context, 'here')).rejects.toMatchObject({
      info: { type: 'cancelled' },
    })
    expect(reports.length).toBeGreaterThan(0)
    expect(tableCounts(db)).toEqual(before)

    const done = await runImport(
      db,
      work,
      { signal: new AbortController().signal, report: () => {} },
      'here',
    )
    expect(done).toEqual({ tasks: folder.counts })
  })

  it('refuses a second file for a table the project already holds, and names both', () => {
    const dir = tempDir()
    const db = join(dir, 'p.winnow')
    const first = writeHalieFolder(join(dir, 'a'), { seed: 1 })
    const second = writeHalieFolder(join(dir, 'b'), { seed: 2 })
    openProject(db, { create: true }).close()
    withProject(db, (p) => importHalie(p, halieSourcesIn(first.dir)))
    const before = tableCounts(db)
    let error: unknown
    withProject(db, (p) => {
      try {
        importHalie(p, halieSourcesIn(second.dir))
      } catch (e) {
        error = e
      }
    })
    expect(error).toBeInstanceOf(UserError)
    expect((error as UserError).message).toBe(
      "crossword/accuracies.csv: the project already holds crossword's accuracies from crossword/accuracies.csv; a task's table is imported once",
    )
    expect(tableCounts(db)).toEqual(before)
  })
})
