import { readFileSync } from 'node:fs'
import { pullSelectionSchema } from '../../../shared/contract/mturk'
import { openProject } from '../../db/connection'
import { type FieldMap, checkFieldMap } from '../../mturk/glucose-map'
import { runPull } from '../../mturk/pullRun'
import { localAuthor } from '../../ratings/author'
import { type Command, UsageError, optionalString, requireString, stringList } from '../command'
import { progressLine } from '../progress'
import {
  MTURK_USAGE_TAIL,
  cancellable,
  cliConnection,
  mturkOptions,
  parseWith,
} from './mturkOptions'

export const pullCommand: Command = {
  name: 'pull',
  summary: 'Pull MTurk assignments into a project (resumable; --new fetches only what changed)',
  usage: [
    `winnow pull (--all | --hit-type ID... | --title TEXT) [--new] [--map FILE] ${MTURK_USAGE_TAIL}`,
    '  --map FILE: JSON {"form field": "release column"} for HITs whose fields are named otherwise',
    '  credentials: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY, or --profile NAME (~/.aws/credentials)',
    '  an interrupted pull with the same selection continues where it stopped',
  ].join('\n'),
  options: {
    ...mturkOptions,
    all: { type: 'boolean' },
    new: { type: 'boolean' },
    'hit-type': { type: 'string', multiple: true },
    title: { type: 'string' },
    map: { type: 'string' },
  },
  async run(values, _positionals, io) {
    const dbPath = requireString(values, 'db')
    const hitTypeIds = stringList(values, 'hit-type')
    const titleContains = optionalString(values, 'title')
    const filtered = hitTypeIds.length > 0 || titleContains !== undefined
    if (values.all === true && filtered)
      throw new UsageError('--all cannot be combined with --hit-type or --title')
    if (values.all !== true && !filtered)
      throw new UsageError('name what to pull: --all, --hit-type ID or --title TEXT')
    const selection = parseWith(pullSelectionSchema, {
      ...(hitTypeIds.length ? { hitTypeIds } : {}),
      ...(titleContains !== undefined ? { titleContains } : {}),
    })
    const mode = values.new === true ? 'new' : 'all'
    const mapFile = optionalString(values, 'map')
    const map = mapFile === undefined ? undefined : readFieldMap(mapFile)
    return cancellable(async (signal) => {
      const connection = cliConnection(values, signal)
      const db = openProject(dbPath, { create: true })
      const progress = io.interactive ? progressLine(io, 'items') : undefined
      try {
        const result = await runPull(
          db,
          connection,
          { mode, selection },
          {
            endpoint: connection.url,
            author: localAuthor(),
            ...(map ? { map } : {}),
            ...(progress ? { progress: (p) => progress.update(p.done, p.total, p.done) } : {}),
          },
        )
        progress?.done()
        const { hits, assignments, updated } = result
        const text = [
          `${result.resumed ? 'Resumed an interrupted pull. ' : ''}${hits} HITs, ${assignments} assignments fetched: ` +
            `${result.new} new, ${updated} with a changed status.`,
          ...(result.skipped
            ? [`${result.skipped} HITs unchanged since their last pull (not fetched).`]
            : []),
          ...(result.nearDisposal
            ? [`${result.nearDisposal} HITs are within 10 days of disposal.`]
            : []),
        ].join('\n')
        return { json: { hits, assignments, new: result.new, updated }, text }
      } finally {
        progress?.done()
        connection.close()
        db.close()
      }
    })
  },
}

/** A mapping file: a JSON object of form field → release column, every column known. */
function readFieldMap(file: string): FieldMap {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new UsageError(`--map ${file}: ${(error as Error).message}`)
  }
  const isMap =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  if (!isMap) throw new UsageError(`--map ${file}: expected {"form field": "column", …}`)
  const map = value as FieldMap
  const problems = checkFieldMap(map)
  if (problems.length > 0) throw new UsageError(`--map ${file}: ${problems.join('; ')}`)
  return map
}
