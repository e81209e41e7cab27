import { resolve } from 'node:path'
import { UserError } from '../../../shared/contract/errors'
import { type HalieTask, describeHalieImport, isHalieTask } from '../../../shared/halie/tasks'
import { openProject } from '../../db/connection'
import { importIntoProject } from '../../importers/intoProject'
import {
  type Command,
  type CommandIo,
  type CommandOutput,
  type ParsedValues,
  UsageError,
  optionalString,
  parseNumber,
  requireString,
} from '../../cli/command'
import { progressLine } from '../../cli/progress'
import { halieSourcesIn } from './read'
import { documentAt, figuresByModel, sessionOf } from './sessions'

const USAGE = `winnow halie import DIR --db P [--json]
       winnow halie replay SESSION --db P --at MS [--task T] [--json]
       winnow halie stats --db P [--task T] [--json]`

export const halieCommand: Command = {
  name: 'halie',
  summary: 'HALIE: import task tables and raw logs; replay a session; figures per model',
  usage: USAGE,
  positionals: true,
  options: {
    db: { type: 'string' },
    json: { type: 'boolean' },
    at: { type: 'string' },
    task: { type: 'string' },
  },
  run(values, positionals, io) {
    const [sub, ...rest] = positionals
    if (sub === 'import') return importCommand(values, rest, io)
    if (sub === 'replay') return replayCommand(values, rest)
    if (sub === 'stats') return statsCommand(values, rest)
    throw new UsageError(
      sub === undefined
        ? 'name a halie command: import, replay or stats'
        : `unknown halie command '${sub}'`,
    )
  },
}

function taskOption(values: ParsedValues): HalieTask | undefined {
  const task = optionalString(values, 'task')
  if (task !== undefined && !isHalieTask(task))
    throw new UsageError(
      `--task must be dialogue, question, crossword, summarization or metaphor, got '${task}'`,
    )
  return task
}

async function importCommand(
  values: ParsedValues,
  dirs: string[],
  io: CommandIo,
): Promise<CommandOutput> {
  const dbPath = requireString(values, 'db')
  if (dirs.length !== 1) throw new UsageError('name one DIR: the folder of HALIE task folders')
  const sources = halieSourcesIn(resolve(dirs[0] as string))
  const progress = io.interactive ? progressLine(io, 'bytes', 'rows') : undefined
  const result = await importIntoProject(
    dbPath,
    { collection: 'halie', sources, options: { author: 'cli' } },
    progress ? { progress: (p) => progress.update(p.done, p.total, p.records, p.step) } : {},
    { create: true },
  )
  progress?.done()
  return { json: result, text: `Added ${describeHalieImport(result)}` }
}

function withProject<T>(values: ParsedValues, read: (db: ReturnType<typeof openProject>) => T): T {
  const db = openProject(requireString(values, 'db'), { memoryMap: false })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

function replayCommand(values: ParsedValues, rest: string[]): CommandOutput {
  const [session, ...more] = rest
  if (session === undefined || more.length > 0) throw new UsageError('name one SESSION')
  const at = optionalString(values, 'at')
  if (at === undefined)
    throw new UsageError('--at is required (milliseconds after the first event)')
  const ms = parseNumber(at, 'at', { min: 0 })
  const task = taskOption(values)
  const doc = withProject(values, (db) => {
    const id = sessionOf(db, session, task)
    const state = documentAt(db, id, ms)
    if (!state)
      throw new UserError({
        type: 'not-found',
        code: 'no-raw-log',
        message: `session ${session} has no raw log to replay`,
      })
    return state
  })
  return { json: doc, text: doc.text }
}

function statsCommand(values: ParsedValues, rest: string[]): CommandOutput {
  if (rest.length > 0) throw new UsageError('halie stats takes no arguments')
  const task = taskOption(values)
  const figures = withProject(values, (db) => figuresByModel(db, task))
  const fixed = (n: number | null, digits = 2): string => (n === null ? '–' : n.toFixed(digits))
  const text = figures
    .map((f) => {
      const scores = Object.entries(f.scores)
        .map(([name, v]) => `${name} ${fixed(v)}`)
        .join(', ')
      return `${f.task}\t${f.model}\t${f.sessions} sessions\t${f.blocks} blocks\taccuracy ${fixed(f.accuracy, 3)}\t${scores}`
    })
    .join('\n')
  return { json: { models: figures }, text: text || 'No HALIE sessions' }
}
