import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import {
  COLLECTION_YEARS,
  type ImportFormat,
  glucoseFormats,
} from '../../../shared/contract/imports'
import { UserError } from '../../../shared/contract/errors'
import { fileProblem } from '../../importers/errors'
import type { JobReport } from '../../jobs/manager'
import { runImport } from '../../tasks/importJob'
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
    // On the task thread, as the app imports: its heap is capped, so its garbage is collected.
    const result = await runImport(
      dbPath,
      {
        files: files.map((f) => ({ path: resolve(f) })),
        options: {
          ...(format ? { format: format as ImportFormat } : {}),
          ...(year ? { year } : {}),
          author: 'cli',
        },
      },
      { signal: new AbortController().signal, report: (r) => progress?.report(r) },
      'auto',
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
function importProgress(io: CommandIo): { report(r: JobReport): void; done(): void } {
  const importing = progressLine(io, 'bytes', 'rows')
  const indexing = progressLine(io, 'items', 'annotations')
  let step: string | undefined
  return {
    report(r) {
      // The rows are read in bytes, then come the steps after them, then the indexing.
      if (r.unit === 'annotations') {
        indexing.update(r.done, r.total ?? null, r.done, r.detail)
        return
      }
      if (r.newStep) step = r.detail
      importing.update(r.done, r.total ?? null, r.records ?? r.done, step)
    },
    // Both draw on the same line: clearing it once clears either.
    done: () => importing.done(),
  }
}
