import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import {
  COLLECTION_YEARS,
  type ImportFormat,
  glucoseFormats,
} from '../../../shared/contract/imports'
import { UserError } from '../../../shared/contract/errors'
import { fileProblem } from '../../importers/errors'
import { type ImportWorkHooks, importIntoProject } from '../../importers/intoProject'
import { describeAdded } from '../../../shared/summaries'
import {
  type Command,
  type CommandIo,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
} from '../command'
import { progressLine } from '../progress'
import { plural } from '../../../shared/text'

export const importCommand: Command = {
  name: 'import',
  summary: 'Import GLUCOSE files (release CSV, per-dimension files, test set) into a project',
  usage: `winnow import FILE... --db P [--format ${glucoseFormats.join('|')}] [--year Y] [--json]`,
  positionals: true,
  options: { ...dbOption, format: { type: 'string' }, year: { type: 'string' } },
  async run(values, files, io) {
    const dbPath = requireString(values, 'db')
    if (files.length === 0) throw new UsageError('name at least one FILE to import')
    const format = optionalString(values, 'format')
    if (format !== undefined && !(glucoseFormats as readonly string[]).includes(format)) {
      throw new UsageError(`--format must be one of ${glucoseFormats.join(', ')}`)
    }
    const yearText = optionalString(values, 'year')
    const year =
      yearText === undefined
        ? undefined
        : parseNumber(yearText, 'year', { integer: true, ...COLLECTION_YEARS })
    for (const file of files) {
      // A file that is not there is a failure like any unreadable input, not a usage error.
      let code: string | undefined
      try {
        if (statSync(file).isDirectory()) code = 'EISDIR'
      } catch (error) {
        code = (error as NodeJS.ErrnoException).code ?? 'ENOENT'
      }
      if (code !== undefined) {
        throw new UserError({
          type: code === 'ENOENT' ? 'not-found' : 'input',
          code: code === 'ENOENT' ? 'no-such-file' : 'unreadable',
          message: `${file}: ${fileProblem(code)}; nothing was imported.`,
          file,
        })
      }
    }
    const progress = io.interactive ? importProgress(io) : undefined
    const result = await importIntoProject(
      dbPath,
      {
        files: files.map((f) => ({ path: resolve(f) })),
        options: {
          ...(format ? { format: format as ImportFormat } : {}),
          ...(year ? { year } : {}),
          author: 'cli',
        },
      },
      progress?.hooks ?? {},
      { create: true },
    )
    progress?.done()
    const lines = result.files.map(
      (f) =>
        `${f.file} (${f.format}): ${plural(f.records, 'record')}, +${plural(f.submissions, 'submission')}, +${plural(f.annotations, 'annotation')}` +
        f.warnings.map((w) => `\n  warning: ${w}`).join(''),
    )
    lines.push(describeAdded(result))
    return { json: result, text: lines.join('\n') }
  },
}

/** The import's progress line on the terminal, then the indexing's. */
function importProgress(io: CommandIo): { hooks: ImportWorkHooks; done(): void } {
  const importing = progressLine(io, 'bytes', 'rows')
  const indexing = progressLine(io, 'items', 'annotations')
  return {
    hooks: {
      progress: (p) => importing.update(p.done, p.total, p.records, p.step),
      indexing: (done, total) => indexing.update(done, total, done, 'Indexing text for search'),
    },
    // Both draw on the same line: clearing it once clears either.
    done: () => importing.done(),
  }
}
