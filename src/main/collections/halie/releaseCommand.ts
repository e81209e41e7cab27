import type { ParsedReleaseOptions, ReleaseResult } from '../../../shared/contract/release'
import { type HalieTask, HALIE_TASKS, isHalieTask } from '../../../shared/halie/tasks'
import { type ParsedValues, UsageError, optionalString } from '../../cli/command'
import { releaseOutput } from '../../cli/releaseOutput'
import { openProject } from '../../db/connection'
import type { ReleaseWriter } from '../collection'
import { HALIE_REFUSALS, exportHalieRelease } from './release'

/** `--task T`: the HALIE task to release. */
export function halieTaskOption(values: ParsedValues): HalieTask {
  const task = optionalString(values, 'task')
  if (task === undefined || !isHalieTask(task))
    throw new UsageError(
      `--task must name a HALIE task (${HALIE_TASKS.join(', ')})${task === undefined ? '' : `, got '${task}'`}`,
    )
  return task
}

export function halieExport(
  dbPath: string,
  task: HalieTask,
  options: ParsedReleaseOptions,
): ReleaseResult {
  const db = openProject(dbPath)
  try {
    return exportHalieRelease(db, dbPath, task, options)
  } finally {
    db.close()
  }
}

/** `winnow export --collection halie --task T`: one task, per tier, rows as imported. */
export const halieReleaseWriter: ReleaseWriter = {
  what: "a HALIE task's standardised CSVs per tier, rows as imported",
  usage:
    '--task T --out DIR [--tiers 3,2] [--as-of T] [--force] [--draft]\n' +
    '         [--card field=value]... [--json]',
  options: { task: { type: 'string' } },
  refuses: {
    ...Object.fromEntries(HALIE_REFUSALS.map((r) => [r.flag, r.why])),
    'dry-run': 'A dry run counts GLUCOSE annotations; a HALIE release has none.',
  },
  fromCommandLine: (dbPath, values, release) =>
    releaseOutput(halieExport(dbPath, halieTaskOption(values), release)),
}
