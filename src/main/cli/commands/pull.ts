import { pullSelectionSchema } from '../../../shared/contract/mturk'
import { openProject } from '../../db/connection'
import { UserError } from '../../../shared/contract/errors'
import { type NamedFieldMap, projectFieldMap, readFieldMapFile } from '../../mturk/fieldMapFile'
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
import { plural } from '../../../shared/text'

export const pullCommand: Command = {
  name: 'pull',
  summary: 'Pull MTurk assignments into a project (resumable; --new fetches only what changed)',
  usage: [
    'winnow pull (--all | --hit-type ID... | --title TEXT) [--new] [--mapping FILE | --exam ID]',
    `       ${MTURK_USAGE_TAIL}`,
    '  --mapping FILE: JSON {"form field": "release column"} for HITs whose fields are named otherwise',
    '    (without it, the mapping chosen for the project in the app, if any; else the column names)',
    "  --exam ID: the HITs are this CROWDAQ exam's qualification HITs (answers keyed by question id):",
    '    their assignments become its attempts',
    '  credentials: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY, or --profile NAME (~/.aws/credentials)',
    '  an interrupted pull with the same selection continues where it stopped',
  ].join('\n'),
  options: {
    ...mturkOptions,
    all: { type: 'boolean' },
    new: { type: 'boolean' },
    'hit-type': { type: 'string', multiple: true },
    title: { type: 'string' },
    mapping: { type: 'string' },
    exam: { type: 'string' },
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
    const examId = optionalString(values, 'exam')
    const selection = parseWith(pullSelectionSchema, {
      ...(hitTypeIds.length ? { hitTypeIds } : {}),
      ...(titleContains !== undefined ? { titleContains } : {}),
      ...(examId !== undefined ? { examId } : {}),
    })
    const mode = values.new === true ? 'new' : 'all'
    const mappingFile = optionalString(values, 'mapping')
    if (mappingFile !== undefined && examId !== undefined)
      throw new UsageError('--mapping reads submissions, --exam reads attempts: give one')
    const given = mappingFile === undefined ? undefined : mappingFrom(mappingFile)
    return cancellable(async (signal) => {
      const connection = cliConnection(values, signal)
      const db = openProject(dbPath, { create: true })
      const map = (given ?? projectFieldMap(db))?.map
      const progress = io.interactive ? progressLine(io, 'items', 'assignments') : undefined
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
          `${result.resumed ? 'Resumed an interrupted pull. ' : ''}${plural(hits, 'HIT')}, ${plural(assignments, 'assignment')} fetched: ` +
            (examId !== undefined
              ? `${plural(result.new, 'new attempt')} of exam ${examId}.`
              : `${result.new} new, ${updated} with a changed status.`),
          ...(result.skipped
            ? [`${plural(result.skipped, 'HIT')} unchanged since their last pull (not fetched).`]
            : []),
          ...(result.nearDisposal
            ? [
                `${plural(result.nearDisposal, 'HIT')} ${result.nearDisposal === 1 ? 'is' : 'are'} within 10 days of disposal.`,
              ]
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

/** `--mapping FILE`, checked before anything is opened; a refusal names the file and fields. */
function mappingFrom(file: string): NamedFieldMap {
  try {
    return readFieldMapFile(file, file)
  } catch (error) {
    if (error instanceof UserError) throw new UsageError(`--mapping ${error.message}`)
    throw error
  }
}
