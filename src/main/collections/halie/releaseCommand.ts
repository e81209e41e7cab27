import type { ParsedReleaseOptions, ReleaseResult } from '../../../shared/contract/release'
import { type HalieTask, HALIE_TASKS, isHalieTask } from '../../../shared/halie/tasks'
import { type ParsedValues, UsageError, optionalString } from '../../cli/command'
import { openProject } from '../../db/connection'
import { exportHalieRelease } from './release'

/**
 * `winnow export --collection halie --task T`: the hook the export command calls, kept here so
 * the HALIE release writer moves as one piece.
 */
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
