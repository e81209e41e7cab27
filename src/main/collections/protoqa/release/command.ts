import { resolve } from 'node:path'
import { plural } from '../../../../shared/text'
import { type CommandOutput, optionalString } from '../../../cli/command'
import { openProject } from '../../../db/connection'
import type { ReleaseWriter } from '../../collection'
import { writeProtoqaRelease } from './writer'

/** Writes the ProtoQA JSONL to `out` (and its datasheet when asked), saying what was left out. */
export function protoqaExport(dbPath: string, out: string, datasheet?: string): CommandOutput {
  const db = openProject(dbPath)
  try {
    const result = writeProtoqaRelease(db, out, datasheet)
    const text = [
      `Wrote ${plural(result.questions, 'question')} to ${out}`,
      ...(result.unclustered.length
        ? [`Left out (no final clustering): ${result.unclustered.join(', ')}`]
        : []),
      ...result.belowSelection.map(
        (b) =>
          `warning: ${b.question}: 8 largest clusters hold ${plural(b.topAnswers, 'answer')} (< 85)`,
      ),
    ].join('\n')
    return { json: result, text }
  } finally {
    db.close()
  }
}

const ONE_FILE = 'A ProtoQA release is one JSONL file of every finally clustered question'

/** `winnow export --collection protoqa` (and its alias `winnow protoqa export`). */
export const protoqaReleaseWriter: ReleaseWriter = {
  what: 'ProtoQA JSONL of the finally clustered questions, and its datasheet',
  usage: '--out FILE [--datasheet FILE] [--json]',
  options: { datasheet: { type: 'string' } },
  refuses: {
    tiers: `${ONE_FILE}; it has no tiers.`,
    format: `${ONE_FILE}; leave out --format.`,
    'as-of': `${ONE_FILE} as it stands now; --as-of is for ratings.`,
    'split-test': `${ONE_FILE}; a held-out split is drawn from GLUCOSE stories only.`,
    filter: `${ONE_FILE}; the review grid's filters select GLUCOSE annotations.`,
    pseudonymize: `${ONE_FILE}; it names no worker.`,
    'neutralize-formulas': `${ONE_FILE}, not a spreadsheet.`,
    force: `${ONE_FILE}; --out names that file, which is replaced.`,
    draft: `${ONE_FILE} with no dataset card; leave out --draft.`,
    card: `${ONE_FILE} with no dataset card; leave out --card.`,
    'dry-run': `${ONE_FILE}; a dry run counts GLUCOSE annotations.`,
  },
  fromCommandLine(dbPath, values, release) {
    const datasheet = optionalString(values, 'datasheet')
    return protoqaExport(dbPath, release.out, datasheet ? resolve(datasheet) : undefined)
  },
}
