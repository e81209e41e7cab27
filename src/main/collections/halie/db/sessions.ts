import type {
  ModelFigures,
  Range,
  SessionChoices,
  SessionDetail,
  SessionFilter,
  SessionRow,
  SessionSort,
  SessionTable,
} from '../../../../shared/halie/sessions'
import type { HalieTable, HalieTask } from '../../../../shared/halie/tasks'
import { append } from '../../../../shared/lists'
import type { Db } from '../../../db/connection'
import { all, get, pluck, pluckAll } from '../../../db/connection'
import { type SqlFragment, sql } from '../../../db/sql'

/** Reading HALIE sessions: the grid's page, one session, its raw log, figures per model. */

const SORT_COLUMNS: Record<SessionSort, string> = {
  task: 's.task',
  session: 's.external_id',
  worker: 'w.external_id',
  model: 's.model',
  prompt: 's.prompt',
  blocks: 's.blocks',
  queries: 's.queries',
  elapsed: 's.elapsed_minutes',
  accuracy: 's.accuracy',
  events: 'events',
}

function inRange(column: SqlFragment, range: Range | undefined): SqlFragment[] {
  const out: SqlFragment[] = []
  if (range?.min !== undefined) out.push(sql`${column} >= ${range.min}`)
  if (range?.max !== undefined) out.push(sql`${column} <= ${range.max}`)
  return out
}

function where(filter: SessionFilter): SqlFragment {
  const parts: SqlFragment[] = []
  const list = (column: string, values: readonly string[] | undefined): void => {
    if (values && values.length > 0)
      parts.push(
        sql`${sql.raw(column)} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`,
      )
  }
  list('s.task', filter.tasks)
  list('w.external_id', filter.workers)
  list('s.model', filter.models)
  if (filter.prompt) parts.push(sql`instr(lower(s.prompt), lower(${filter.prompt})) > 0`)
  append(parts, inRange(sql.raw('s.elapsed_minutes'), filter.elapsed))
  append(parts, inRange(sql.raw('s.queries'), filter.queries))
  append(parts, inRange(sql.raw('s.accuracy'), filter.accuracy))
  for (const score of filter.scores ?? []) {
    const bounds = inRange(sql.raw('c.value'), score)
    parts.push(
      sql`EXISTS (SELECT 1 FROM halie_scores AS c WHERE c.session_id = s.id AND c.name = ${score.name}
          ${bounds.length > 0 ? sql`AND ${sql.join(bounds, ' AND ')}` : sql``})`,
    )
  }
  if (filter.withLog) parts.push(sql`l.id IS NOT NULL`)
  return parts.length === 0 ? sql`` : sql`WHERE ${sql.join(parts, ' AND ')}`
}

const FROM = sql.raw(`FROM halie_sessions AS s
  LEFT JOIN workers AS w ON w.id = s.worker_id
  LEFT JOIN halie_logs AS l ON l.session_id = s.id`)

/** A session row as SQL gives it: its scores still JSON. */
type RawRow = Omit<SessionRow, 'scores' | 'rating' | 'ratingSource'> & { scores: string | null }

const COLUMNS =
  sql.raw(`s.id AS id, s.task AS task, s.external_id AS session, w.external_id AS worker,
  s.model AS model, s.prompt AS prompt, s.blocks AS blocks, s.queries AS queries,
  s.elapsed_minutes AS elapsedMinutes, s.accuracy AS accuracy, coalesce(l.events, 0) AS events, s.worker_id AS workerId,
  (SELECT json_group_object(c.name, c.value) FROM halie_scores AS c WHERE c.session_id = s.id) AS scores`)

/** Rows without their ratings yet: the caller works those out (collections/halie/ratings). */
export type UnratedRow = Omit<SessionRow, 'rating' | 'ratingSource'>

function toRow(r: RawRow): UnratedRow {
  return { ...r, scores: r.scores ? (JSON.parse(r.scores) as Record<string, number>) : {} }
}

/** A page of the sessions the filter keeps, with their exact count. */
export function sessionPage(
  db: Db,
  filter: SessionFilter,
  page: { sort?: SessionSort; descending?: boolean; offset: number; limit: number },
): { total: number; rows: UnratedRow[] } {
  const order = sql.raw(
    `${SORT_COLUMNS[page.sort ?? 'task']} ${page.descending ? 'DESC' : 'ASC'} NULLS LAST, s.id`,
  )
  const filtered = where(filter)
  const total = pluck<number>(db, sql`SELECT count(*) ${FROM} ${filtered}`) ?? 0
  const rows = all<RawRow>(
    db,
    sql`SELECT ${COLUMNS} ${FROM} ${filtered} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
  )
  return { total, rows: rows.map(toRow) }
}

/** The sessions of an external id (ids are unique within a task). */
export function sessionsById(db: Db, externalId: string): { id: number; task: HalieTask }[] {
  return all(
    db,
    sql`SELECT id, task FROM halie_sessions WHERE external_id = ${externalId} ORDER BY task`,
  )
}

export function sessionDetail(
  db: Db,
  id: number,
): (Omit<SessionDetail, 'row'> & { row: UnratedRow }) | null {
  const raw = get<RawRow>(db, sql`SELECT ${COLUMNS} ${FROM} WHERE s.id = ${id}`)
  if (!raw) return null
  const tables = all<{ id: number; kind: HalieTable; header: string }>(
    db,
    sql`SELECT id, kind, header FROM halie_tables
        WHERE task = ${raw.task} AND id IN (SELECT table_id FROM halie_rows WHERE session_id = ${id})
        ORDER BY id`,
  ).map((t): SessionTable => ({
    kind: t.kind,
    header: JSON.parse(t.header) as string[],
    rows: all<{ id: number; line: number; cells: string; rating: number | null }>(
      db,
      sql`SELECT id, line, cells, rating FROM halie_rows WHERE session_id = ${id} AND table_id = ${t.id}
            ORDER BY line`,
    ).map((r) => ({ ...r, cells: JSON.parse(r.cells) as string[] })),
  }))
  const extra = get<{ metadata: string | null; durationMs: number | null }>(
    db,
    sql`SELECT s.metadata AS metadata, l.duration_ms AS durationMs
        FROM halie_sessions AS s LEFT JOIN halie_logs AS l ON l.session_id = s.id WHERE s.id = ${id}`,
  )
  return {
    row: toRow(raw),
    tables,
    metadata: extra?.metadata ?? null,
    durationMs: extra?.durationMs ?? null,
  }
}

/** A session's raw log, its lines in log order; empty without one. */
export function logLines(db: Db, sessionId: number): string[] {
  return pluckAll<string>(
    db,
    sql`SELECT e.line FROM halie_log_events AS e JOIN halie_logs AS l ON l.id = e.log_id
        WHERE l.session_id = ${sessionId} ORDER BY e.seq`,
  )
}

export function sessionChoices(db: Db): SessionChoices {
  return {
    tasks: pluckAll(db, sql`SELECT DISTINCT task FROM halie_sessions ORDER BY task`),
    models: pluckAll(
      db,
      sql`SELECT DISTINCT model FROM halie_sessions WHERE model IS NOT NULL ORDER BY model`,
    ),
    scores: pluckAll(db, sql`SELECT DISTINCT name FROM halie_scores ORDER BY name`),
  }
}

/** Per task and model (sessions the tables name; a raw log alone has no model): sessions, blocks, queries, mean minutes, mean accuracy, survey means. */
export function modelFigures(db: Db, task?: HalieTask): ModelFigures[] {
  const rows = all<Omit<ModelFigures, 'scores'> & { scores: string | null }>(
    db,
    sql`SELECT s.task AS task, s.model AS model, count(*) AS sessions,
          sum(s.blocks) AS blocks, sum(s.queries) AS queries,
          avg(s.elapsed_minutes) AS elapsedMinutes, avg(s.accuracy) AS accuracy,
          (SELECT json_group_object(name, mean) FROM (
             SELECT c.name AS name, avg(c.value) AS mean FROM halie_scores AS c
             JOIN halie_sessions AS t ON t.id = c.session_id
             WHERE t.task = s.task AND t.model = s.model
             GROUP BY c.name ORDER BY c.name)) AS scores
        FROM halie_sessions AS s
        WHERE s.model IS NOT NULL ${task ? sql`AND s.task = ${task}` : sql``}
        GROUP BY s.task, s.model
        ORDER BY s.task, model`,
  )
  return rows.map((r) => ({
    ...r,
    scores: r.scores ? (JSON.parse(r.scores) as Record<string, number>) : {},
  }))
}
