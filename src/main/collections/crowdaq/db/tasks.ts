import type { Db } from '../../../db/connection'
import { all, pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'

/** Task assignments: one completed response per (task, worker). */

export interface NewTaskAssignment {
  taskId: string
  workerId: number
  platform: string | null
  startedAt: number | null
  completedAt: number | null
  /** {group: {collector: value}} (a repeated group: an array of entries). */
  response: unknown
}

/** Adds a response; false when this worker's response to this task is already in the project. */
export function addTaskAssignment(db: Db, a: NewTaskAssignment, changeSetId: number): boolean {
  return (
    run(
      db,
      sql`INSERT INTO crowdaq_task_assignments (id, task_id, worker_id, platform, started_at, completed_at,
            response, change_set_id)
          VALUES (${nextBandId(db, 'crowdaq_task_assignments')}, ${a.taskId}, ${a.workerId}, ${a.platform}, ${a.startedAt}, ${a.completedAt},
            ${JSON.stringify(a.response)}, ${changeSetId})
          ON CONFLICT (task_id, worker_id) DO NOTHING`,
    ).changes > 0
  )
}

export interface TaskResponseRow {
  id: number
  taskId: string
  workerId: string
  completedAt: number | null
  response: Record<string, unknown>
}

export function taskResponses(db: Db, taskId?: string): TaskResponseRow[] {
  return all<Omit<TaskResponseRow, 'response'> & { response: string }>(
    db,
    sql`SELECT t.id, t.task_id AS taskId, w.external_id AS workerId, t.completed_at AS completedAt,
          t.response
        FROM crowdaq_task_assignments t JOIN workers w ON w.id = t.worker_id
        ${taskId === undefined ? sql.empty : sql`WHERE t.task_id = ${taskId}`}
        ORDER BY t.task_id, w.external_id`,
  ).map((r) => ({ ...r, response: JSON.parse(r.response) as Record<string, unknown> }))
}

export function taskResponseCount(db: Db): number {
  return pluck<number>(db, sql`SELECT count(*) FROM crowdaq_task_assignments`) ?? 0
}
