import { createHash } from 'node:crypto'
import { parseNumber, withoutSentinel } from '../../../shared/halie/cells'
import {
  type HalieImportResult,
  type HalieTask,
  type HalieTaskCounts,
  SURVEY_SCORES,
  describeHalieImport,
} from '../../../shared/halie/tasks'
import { Replay } from '../../../shared/halie/replay'
import { type Db, withPragmas } from '../../db/connection'
import { createChangeSet, describeChangeSet, discardChangeSet } from '../../db/queries/changes/sets'
import {
  addLog,
  addTable,
  findOrAddSession,
  hasLog,
  heldTable,
  logEventWriter,
  rowWriter,
  sessionKeys,
  setAccuracy,
  setMetadata,
  fillStartTimes,
  scoreWriter,
  setManySessionFigures,
} from './db/store'
import {
  type ChangedSession,
  ownChange,
  recordChangedSessions,
  sessionValues,
} from './db/changedSessions'
import { findOrAddWorker } from '../../db/queries/workers/ids'
import { completeSourceFile, insertSourceFile } from '../../db/queries/submissions'
import { CancelledError } from '../../jobs/cancel'
import { IMPORT_PRAGMAS, type ImportHooks } from '../../importers/run'
import {
  type HalieSource,
  type ReadLog,
  type ReadTable,
  type SessionMetadata,
  classify,
  halieError,
  readLog,
  readMetadata,
  readTable,
} from './read'

const PROGRESS_EVERY = 500

const emptyCounts = (): HalieTaskCounts => ({
  sessions: 0,
  eventBlocks: 0,
  surveyResponses: 0,
  logs: 0,
})

interface SessionRef {
  worker: string
  model: string
  prompt: string
  /** Where it was first seen, for a row that disagrees. */
  file: string
  line: number
}

/**
 * Imports a HALIE data folder in one transaction: all of it or, on bad input or cancel, nothing.
 * Every file is read and checked first. Tables join on `session_id`; a table already imported
 * from the same file is skipped and one from another file is refused, and a session's raw log
 * already held is skipped, so importing a folder twice adds nothing.
 */
export function importHalie(
  db: Db,
  sources: readonly HalieSource[],
  options: { author?: string } = {},
  hooks: ImportHooks = {},
): HalieImportResult {
  const files = classify(sources)
  if (files.length === 0)
    throw halieError(
      'no HALIE files here: expected <task>/event_blocks.csv, survey_responses.csv, accuracies.csv or logs',
      { file: sources[0]?.relPath.split('/')[0] ?? 'the folder' },
      'format-mismatch',
    )
  const tables: ReadTable[] = []
  const logs: ReadLog[] = []
  const metadata: { display: string; path: string; records: SessionMetadata[]; bytes: number }[] =
    []
  for (const file of files) {
    if (file.kind === 'table') tables.push(readTable(file))
    else if (file.kind === 'log') logs.push(readLog(file))
    else metadata.push({ display: file.display, path: file.path, ...readMetadata(file) })
  }
  checkSessions(db, tables)
  const totalBytes =
    tables.reduce((s, t) => s + t.bytes, 0) +
    logs.reduce((s, l) => s + l.bytes, 0) +
    metadata.reduce((s, m) => s + m.bytes, 0)
  const author = options.author ?? 'import'

  const write = (): HalieImportResult => {
    const changeSet = createChangeSet(db, { kind: 'import', author, description: 'Import' })
    const result: HalieImportResult = { tasks: {} }
    const counts = (task: HalieTask): HalieTaskCounts => (result.tasks[task] ??= emptyCounts())
    const sessionsSeen = new Map<HalieTask, Set<string>>()
    let bytesDone = 0
    let records = 0
    const tick = (file: string, bytes: number): void => {
      if (++records % PROGRESS_EVERY !== 0) return
      if (hooks.cancelled?.()) throw new CancelledError()
      hooks.progress?.({ done: bytesDone + bytes, total: totalBytes, unit: 'bytes', records, file })
    }
    // One look-up per session, not per row: its rows were checked to agree on their keys.
    const known = new Map<string, number>()
    // Sessions held before, as they were: what this import sets in them is what travels.
    const looked = new Set<string>()
    const before = new Map<number, ChangedSession>()
    const session = (
      task: HalieTask,
      id: string,
      keys?: { worker: string; model: string; prompt: string },
    ): number => {
      const key = `${task}\t${id}`
      const cached = known.get(key)
      if (cached !== undefined) return cached
      if (!looked.has(key)) {
        looked.add(key)
        const held = sessionValues(db, task, id)
        if (held) before.set(held.id, held.values)
      }
      const found = findOrAddSession(db, {
        task,
        externalId: id,
        workerId: keys ? findOrAddWorker(db, keys.worker) : null,
        model: keys?.model || null,
        prompt: keys?.prompt || null,
        changeSetId: changeSet.id,
      })
      if (keys) known.set(key, found)
      return found
    }

    // Sessions written to: what this one set in those held before is recorded as its change.
    const touched = new Set<number>()
    const rows = rowWriter(db)
    const scores = scoreWriter(db)
    for (const table of tables) {
      const { task, table: kind, display, path } = table.file
      const c = counts(task)
      const held = heldTable(db, task, kind)
      if (held) {
        if (held.sha256 === table.sha256) {
          bytesDone += table.bytes
          continue
        }
        throw halieError(
          `the project already holds ${task}'s ${kind.replace('_', ' ')} from ${held.name}; a task's table is imported once`,
          { file: display },
          'conflicting-cells',
        )
      }
      const sourceFileId = insertSourceFile(db, {
        name: display,
        path,
        bytes: table.bytes,
        format: `halie-${kind.replace('_', '-')}`,
        year: null,
        changeSetId: changeSet.id,
      })
      const tableId = addTable(db, { task, kind, header: table.header, sourceFileId })
      const col = (name: string): number => table.header.indexOf(name)
      const [sid, wid, mid, pid] = [
        col('session_id'),
        col('worker_id'),
        col('model'),
        col('prompt'),
      ]
      const bySession = new Map<number, string[][]>()
      const seen = sessionsSeen.get(task) ?? new Set<string>()
      sessionsSeen.set(task, seen)
      for (const row of table.rows) {
        const cells = row.cells
        const cell = (i: number): string => (i >= 0 ? (cells[i] ?? '') : '')
        const externalId = cell(sid)
        seen.add(externalId)
        // The keys are read only for a session's first row: its rows agree (checkSessions).
        const id =
          known.get(`${task}\t${externalId}`) ??
          session(task, externalId, { worker: cell(wid), model: cell(mid), prompt: cell(pid) })
        touched.add(id)
        rows.add(tableId, row.line, id, JSON.stringify(cells))
        const list = bySession.get(id)
        if (list) list.push(cells)
        else bySession.set(id, [cells])
        tick(display, 0)
      }
      rows.flush()
      if (kind === 'event_blocks') {
        c.eventBlocks += table.rows.length
        const figures: [number, number, number, number | null][] = []
        for (const [id, list] of bySession) {
          const f = blockFigures(task, table.header, list)
          figures.push([id, f.blocks, f.queries, f.elapsedMinutes])
          if (f.accuracy !== undefined) setAccuracy(db, id, f.accuracy)
        }
        setManySessionFigures(db, figures)
      } else if (kind === 'survey_responses') {
        c.surveyResponses += table.rows.length
        for (const [id, list] of bySession)
          for (const [name, value] of surveyScores(task, table.header, list))
            scores.add(id, name, value)
        scores.flush()
      } else {
        const accuracy = col('clue_accuracy')
        for (const [id, list] of bySession) {
          const value = parseNumber(list[0]?.[accuracy] ?? '')
          if (value !== null) setAccuracy(db, id, value)
        }
      }
      completeSourceFile(db, sourceFileId, {
        sha256: table.sha256,
        records: table.rows.length,
        counts: { submissions: 0, annotations: 0 },
        warnings: [],
      })
      bytesDone += table.bytes
    }
    for (const [task, seen] of sessionsSeen) counts(task).sessions = seen.size

    const events = logEventWriter(db)
    for (const log of logs) {
      const { task, sessionId, display, path } = log.file
      const c = counts(task)
      const id = session(task, sessionId)
      if (hasLog(db, id)) {
        bytesDone += log.bytes
        continue
      }
      touched.add(id)
      const sourceFileId = insertSourceFile(db, {
        name: display,
        path,
        bytes: log.bytes,
        format: 'halie-log',
        year: null,
        changeSetId: changeSet.id,
      })
      const logId = addLog(db, {
        sessionId: id,
        sourceFileId,
        events: log.events.length,
        durationMs: new Replay(log.events).duration,
      })
      log.lines.forEach((line, seq) => {
        events.add(logId, seq, line)
        tick(display, 0)
      })
      events.flush()
      completeSourceFile(db, sourceFileId, {
        sha256: createHash('sha256').update(log.lines.join('\n')).digest('hex'),
        records: log.lines.length,
        counts: { submissions: 0, annotations: 0 },
        warnings: [],
      })
      c.logs++
      bytesDone += log.bytes
    }

    for (const m of metadata) {
      for (const record of m.records) {
        counts(record.task)
        const id = session(record.task, record.sessionId)
        if (setMetadata(db, id, record.line)) touched.add(id)
      }
      bytesDone += m.bytes
    }
    fillStartTimes(db)
    if (hooks.cancelled?.()) throw new CancelledError()
    hooks.progress?.({
      done: totalBytes,
      total: totalBytes,
      unit: 'bytes',
      records,
      file: '',
      step: 'Committing',
    })
    // Metadata alone is a change too (it travels to a team's other replicas).
    const added = touched.size > 0
    if (added) {
      describeChangeSet(db, changeSet.id, `Import HALIE: ${describeHalieImport(result)}`)
      recordChangedSessions(db, changeSet.id, ownChanges(db, before, touched))
    } else discardChangeSet(db, changeSet.id)
    return result
  }
  return withPragmas(db, IMPORT_PRAGMAS, () => db.transaction(write).immediate())
}

/** What the import set in each session it wrote to that was held before it. */
function ownChanges(
  db: Db,
  before: ReadonlyMap<number, ChangedSession>,
  touched: ReadonlySet<number>,
): { sessionId: number; change: ChangedSession }[] {
  const out: { sessionId: number; change: ChangedSession }[] = []
  for (const [sessionId, values] of before) {
    if (!touched.has(sessionId)) continue
    const after = sessionValues(db, values.task, values.externalId)
    const change = after && ownChange(values, after.values)
    if (change) out.push({ sessionId, change })
  }
  return out
}

/** A session's worker, model and prompt agree over every row of every table, and with the project. */
function checkSessions(db: Db, tables: readonly ReadTable[]): void {
  const known = new Map<string, SessionRef>()
  for (const table of tables) {
    const { task, display } = table.file
    const col = (name: string): number => table.header.indexOf(name)
    const keys = ['worker_id', 'model', 'prompt'] as const
    // Column positions once per table, not per row.
    const sid = col('session_id')
    const at = keys.map(col)
    for (const row of table.rows) {
      const id = row.cells[sid] ?? ''
      const key = `${task}\t${id}`
      let ref = known.get(key)
      // The common case, a row agreeing with its session's first, allocates nothing.
      if (
        ref &&
        (row.cells[at[0] ?? -1] ?? '') === ref.worker &&
        (row.cells[at[1] ?? -1] ?? '') === ref.model &&
        (row.cells[at[2] ?? -1] ?? '') === ref.prompt
      )
        continue
      const values = at.map((i) => row.cells[i] ?? '')
      if (!ref) {
        const held = sessionKeys(db, task, id)
        ref = {
          worker: held?.worker ?? (values[0] as string),
          model: held?.model ?? (values[1] as string),
          prompt: held?.prompt ?? (values[2] as string),
          file: held ? 'the project' : display,
          line: held ? 0 : row.line,
        }
        known.set(key, ref)
      }
      const expected = [ref.worker, ref.model, ref.prompt]
      keys.forEach((k, i) => {
        if (values[i] === expected[i]) return
        const where = ref.line > 0 ? `${ref.file}:${ref.line}` : ref.file
        throw halieError(
          `session ${id} has ${k} ${JSON.stringify(expected[i])} in ${where}, here ${JSON.stringify(values[i])}`,
          { file: display, line: row.line, field: k },
          'conflicting-cells',
        )
      })
    }
  }
}

const sum = (values: readonly (number | null)[]): number | null => {
  const present = values.filter((v): v is number => v !== null)
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0)
}
const mean = (values: readonly (number | null)[]): number | null => {
  const present = values.filter((v): v is number => v !== null)
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length
}

/**
 * A session's figures from its event blocks: blocks, LM queries (`num_queries` where the task
 * has it, else one per block: a dialogue turn, a summary, a crossword query), minutes spent, and
 * for the question task the share answered correctly.
 */
export function blockFigures(
  task: HalieTask,
  header: readonly string[],
  rows: readonly string[][],
): { blocks: number; queries: number; elapsedMinutes: number | null; accuracy?: number | null } {
  const column = (name: string): (number | null)[] => {
    const i = header.indexOf(name)
    return i < 0 ? [] : rows.map((r) => parseNumber(r[i] ?? ''))
  }
  const queries = header.includes('num_queries') ? (sum(column('num_queries')) ?? 0) : rows.length
  return {
    blocks: rows.length,
    queries,
    elapsedMinutes: sum(column('elapsed_time')),
    ...(task === 'question' ? { accuracy: mean(column('user_correct')) } : {}),
  }
}

/**
 * A session's survey scores. Dialogue's turn −1 row carries the session's quality; its turn rows
 * carry 0/1 flags, averaged over the turns. Elsewhere one row per session; −1 is "not asked".
 */
export function surveyScores(
  task: HalieTask,
  header: readonly string[],
  rows: readonly string[][],
): [string, number][] {
  const turn = header.indexOf('turn_id')
  const out: [string, number][] = []
  for (const name of SURVEY_SCORES[task]) {
    const i = header.indexOf(name)
    if (i < 0) continue
    const pick =
      task === 'dialogue' && turn >= 0
        ? rows.filter((r) => (parseNumber(r[turn] ?? '') === -1) === (name === 'quality'))
        : rows
    const value = mean(
      pick.map((r) =>
        task === 'dialogue' ? parseNumber(r[i] ?? '') : withoutSentinel(parseNumber(r[i] ?? '')),
      ),
    )
    if (value !== null) out.push([name, value])
  }
  return out
}
