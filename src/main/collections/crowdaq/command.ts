import { describeCounts } from './import/counts'
import { importIntoProject } from '../../importers/intoProject'
import { localAuthor } from '../../ratings/author'
import {
  type Command,
  UsageError,
  dbOption,
  optionalString,
  requireString,
} from '../../cli/command'

export const crowdaqCommand: Command = {
  name: 'crowdaq',
  summary: 'Import CROWDAQ instructions, tutorials, exams, task specs, attempts and responses',
  usage: [
    'winnow crowdaq import PATH --db P [--exam ID] [--json]',
    '  PATH: a .json file (one item or an array), a Markdown instruction, an attempts CSV',
    '  (worker_id,attempt,question_id,shown,answer; --exam names its exam), a .zip of these,',
    '  or a desktop-client export folder. Any problem: all are listed and nothing is imported.',
  ].join('\n'),
  positionals: true,
  options: { ...dbOption, exam: { type: 'string' } },
  async run(values, positionals) {
    const [action, path, ...extra] = positionals
    if (action !== 'import') throw new UsageError('name an action: import')
    if (!path) throw new UsageError('give the PATH to import')
    if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0] ?? ''}`)
    const counts = await importIntoProject(
      requireString(values, 'db'),
      {
        collection: 'crowdaq',
        path,
        options: { author: localAuthor(), examId: optionalString(values, 'exam') },
      },
      {},
      { create: true },
    )
    return { json: counts, text: `Imported ${describeCounts(counts)}.` }
  },
}
