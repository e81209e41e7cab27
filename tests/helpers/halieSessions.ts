import type { Db } from '../../src/main/db/connection'
import type { SessionFilter } from '../../src/shared/halie/sessions'

/**
 * The sessions a filter keeps, in plain SQL written apart from the app's query: one statement per
 * condition, intersected in JavaScript, so a wrong join or bound in the app's query shows.
 */
export function plainSessionIds(db: Db, filter: SessionFilter): number[] {
  const sets: Set<number>[] = []
  const ids = (text: string, ...values: unknown[]): Set<number> =>
    new Set(
      db
        .prepare(text)
        .pluck()
        .all(...values) as number[],
    )
  sets.push(ids('SELECT id FROM halie_sessions'))
  if (filter.tasks?.length)
    sets.push(
      ids(
        `SELECT id FROM halie_sessions WHERE task IN (${filter.tasks.map(() => '?').join(',')})`,
        ...filter.tasks,
      ),
    )
  if (filter.models?.length)
    sets.push(
      ids(
        `SELECT id FROM halie_sessions WHERE model IN (${filter.models.map(() => '?').join(',')})`,
        ...filter.models,
      ),
    )
  if (filter.workers?.length)
    sets.push(
      ids(
        `SELECT s.id FROM halie_sessions s, workers w WHERE w.id = s.worker_id AND w.external_id IN (${filter.workers.map(() => '?').join(',')})`,
        ...filter.workers,
      ),
    )
  if (filter.prompt)
    sets.push(ids("SELECT id FROM halie_sessions WHERE prompt LIKE '%' || ? || '%'", filter.prompt))
  const range = (
    column: string,
    r: { min?: number | undefined; max?: number | undefined } | undefined,
  ): void => {
    if (!r) return
    sets.push(
      ids(
        `SELECT id FROM halie_sessions WHERE ${column} BETWEEN ? AND ?`,
        r.min ?? -1e308,
        r.max ?? 1e308,
      ),
    )
  }
  range('elapsed_minutes', filter.elapsed)
  range('queries', filter.queries)
  range('accuracy', filter.accuracy)
  for (const s of filter.scores ?? [])
    sets.push(
      ids(
        'SELECT session_id FROM halie_scores WHERE name = ? AND value BETWEEN ? AND ?',
        s.name,
        s.min ?? -1e308,
        s.max ?? 1e308,
      ),
    )
  if (filter.withLog) sets.push(ids('SELECT session_id FROM halie_logs'))
  const [first, ...rest] = sets
  return [...(first ?? [])].filter((id) => rest.every((s) => s.has(id))).sort((a, b) => a - b)
}
