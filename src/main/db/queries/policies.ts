import type { PolicySample, PolicyTransition } from '../../../shared/contract/policies'
import { RATING_SCALE_SETTING } from '../../../shared/contract/ratings'
import { dayStart, formatDay } from '../../../shared/filter'
import type { Db } from '../connection'
import { all, get, pluck, pluckAll, run } from '../connection'
import { type SqlFragment, sql } from '../sql'

/**
 * A policy's facts (aggregates, never rows) and its moves. The moves live in a per-connection
 * temp table: one row per annotation, taken by the first rule that selects it.
 */

const DAY = 86_400

export interface WorkerRatingRow {
  workerId: number | null
  externalId: string | null
  rating: number | null
  annotations: number
  submissions: number
}

/** Annotations and submissions by worker and effective rating (read from `ann_rating` alone). */
export function annotationsByWorkerAndRating(db: Db): WorkerRatingRow[] {
  return all<WorkerRatingRow>(
    db,
    sql`SELECT g.worker_id AS workerId, w.external_id AS externalId, g.rating, g.annotations, g.submissions
        FROM (SELECT a.worker_id, a.rating, count(*) AS annotations,
                count(DISTINCT a.id >> 4) AS submissions
              FROM annotations a GROUP BY a.rating, a.worker_id) AS g
        LEFT JOIN workers w ON w.id = g.worker_id`,
  )
}

export interface WorkerSubmissionRow {
  externalId: string
  submissions: number
  first: number | null
  last: number | null
}

export function submissionsByWorker(db: Db): WorkerSubmissionRow[] {
  return all<WorkerSubmissionRow>(
    db,
    sql`SELECT w.external_id AS externalId, s.n AS submissions, s.first, s.last
        FROM (SELECT worker_id, count(*) AS n, min(submitted_at) AS first, max(submitted_at) AS last
              FROM submissions WHERE worker_id IS NOT NULL GROUP BY worker_id) AS s
        JOIN workers w ON w.id = s.worker_id ORDER BY w.external_id`,
  )
}

export function submissionRange(db: Db): { first: string | null; last: string | null } {
  const row = get<{ first: number | null; last: number | null }>(
    db,
    sql`SELECT min(submitted_at) AS first, max(submitted_at) AS last FROM submissions`,
  )
  return {
    first: row?.first == null ? null : formatDay(row.first),
    last: row?.last == null ? null : formatDay(row.last),
  }
}

/** Per worker (external id): submissions and annotations per day, oldest first. */
export function workerDays(
  db: Db,
): Record<string, { day: string; submissions: number; annotations: number }[]> {
  const rows = all<{ worker: string; day: number; submissions: number; annotations: number }>(
    db,
    sql`SELECT w.external_id AS worker, g.day, g.submissions, g.annotations
        FROM (SELECT a.worker_id, a.submitted_at / ${DAY} AS day, count(*) AS annotations,
                count(DISTINCT a.id >> 4) AS submissions
              FROM annotations a WHERE a.worker_id IS NOT NULL AND a.submitted_at IS NOT NULL
              GROUP BY a.worker_id, a.submitted_at / ${DAY}) AS g
        JOIN workers w ON w.id = g.worker_id ORDER BY g.worker_id, g.day`,
  )
  const out: Record<string, { day: string; submissions: number; annotations: number }[]> = {}
  for (const r of rows) {
    ;(out[r.worker] ??= []).push({
      day: formatDay(r.day * DAY),
      submissions: r.submissions,
      annotations: r.annotations,
    })
  }
  return out
}

export interface DimensionFact {
  dimension: number
  annotations: number
  byRating: { rating: number | null; submissions: number; annotations: number }[]
}

/** Per worker (external id): annotations by dimension, each by effective rating. */
export function workerDimensions(db: Db): Record<string, DimensionFact[]> {
  const rows = all<{
    worker: string
    dimension: number
    rating: number | null
    annotations: number
  }>(
    db,
    sql`SELECT w.external_id AS worker, g.dimension, g.rating, g.annotations
        FROM (SELECT a.worker_id, a.dimension, a.rating, count(*) AS annotations
              FROM annotations a WHERE a.worker_id IS NOT NULL
              GROUP BY a.worker_id, a.dimension, a.rating) AS g
        JOIN workers w ON w.id = g.worker_id
        ORDER BY g.worker_id, g.dimension, g.rating DESC NULLS LAST`,
  )
  const out: Record<string, DimensionFact[]> = {}
  for (const r of rows) {
    const list = (out[r.worker] ??= [])
    let dim = list.at(-1)
    if (dim?.dimension !== r.dimension) {
      dim = { dimension: r.dimension, annotations: 0, byRating: [] }
      list.push(dim)
    }
    dim.annotations += r.annotations
    // Each annotation is its own submission's one row for a dimension.
    dim.byRating.push({ rating: r.rating, submissions: r.annotations, annotations: r.annotations })
  }
  return out
}

/** Worker ids (external) → row ids, for the ones the project knows. */
export function workerIdsByExternal(db: Db, externalIds: readonly string[]): Map<string, number> {
  const rows = all<{ externalId: string; id: number }>(
    db,
    sql`SELECT external_id AS externalId, id FROM workers
        WHERE external_id IN (SELECT value FROM json_each(${JSON.stringify(externalIds)}))`,
  )
  return new Map(rows.map((r) => [r.externalId, r.id]))
}

/** What a rule selects, in SQL over `annotations a`. */
export interface RuleSelection {
  workerIds?: readonly number[]
  ratings?: readonly (number | null)[]
  dimensions?: readonly number[]
  from?: string
  to?: string
  /** A query yielding annotation ids (a review-grid filter); null selects nothing. */
  matching?: SqlFragment | null
}

function condition(s: RuleSelection): SqlFragment {
  const parts: SqlFragment[] = []
  if (s.workerIds !== undefined) {
    parts.push(
      s.workerIds.length === 0
        ? sql`0`
        : sql`a.worker_id IN (SELECT value FROM json_each(${JSON.stringify(s.workerIds)}))`,
    )
  }
  if (s.ratings !== undefined) {
    const values = s.ratings.filter((r): r is number => r !== null)
    const either: SqlFragment[] = []
    if (values.length > 0) either.push(sql`a.rating IN ${sql.list(values)}`)
    if (s.ratings.includes(null)) either.push(sql`a.rating IS NULL`)
    parts.push(either.length === 0 ? sql`0` : sql`(${sql.join(either, ' OR ')})`)
  }
  if (s.dimensions !== undefined) {
    parts.push(s.dimensions.length === 0 ? sql`0` : sql`a.dimension IN ${sql.list(s.dimensions)}`)
  }
  if (s.from !== undefined) parts.push(sql`a.submitted_at >= ${dayStart(s.from)}`)
  if (s.to !== undefined) parts.push(sql`a.submitted_at < ${dayStart(s.to) + DAY}`)
  if (s.matching !== undefined) {
    parts.push(s.matching === null ? sql`0` : sql`a.id IN (${s.matching})`)
  }
  return parts.length === 0 ? sql`1` : sql.join(parts, ' AND ')
}

/**
 * Empties the moves; rules are then added in order. A move keeps the annotation's rating before
 * it (`was`), its worker and dimension, so counting and sampling the moves reads this table alone.
 * `policy_groups` holds which rule takes each group of annotations (see `selectMoves`).
 */
export function beginMoves(db: Db): void {
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS policy_moves (
      id INTEGER PRIMARY KEY, rule INTEGER NOT NULL, rating REAL NOT NULL, was REAL,
      worker_id INTEGER, dimension INTEGER NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS policy_rule_notes (rule INTEGER PRIMARY KEY, note TEXT NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS policy_groups (
      worker_id INTEGER, rating REAL, dimension INTEGER, day INTEGER,
      rule INTEGER NOT NULL, rating_to REAL NOT NULL);
    DROP INDEX IF EXISTS temp.policy_moves_moved;
    DELETE FROM temp.policy_moves;
    DELETE FROM temp.policy_rule_notes;
    DELETE FROM temp.policy_groups;
  `)
}

/** Each rule's note (its name and reason), which apply writes with the rule's ratings. */
export function addRuleNotes(db: Db, notes: readonly string[]): void {
  run(
    db,
    sql`INSERT INTO temp.policy_rule_notes (rule, note)
        SELECT key, value FROM json_each(${JSON.stringify(notes)})`,
  )
}

/** The annotation columns a policy's rules select by (a rule's days are whole UTC days). */
export interface GroupKeys {
  worker: boolean
  rating: boolean
  dimension: boolean
  day: boolean
}

/** One group of annotations alike in every key: `[worker, rating, dimension, day]`, unused keys null. */
export type AnnotationGroup = [number | null, number | null, number | null, number | null]

/** The first second of the UTC day of `a.submitted_at` (SQLite's `/` and `%` truncate toward 0). */
const dayOf = sql`a.submitted_at - (a.submitted_at % ${DAY} + ${DAY}) % ${DAY}`

/**
 * The distinct groups of annotations by the keys the rules use, in one pass over the annotations,
 * or over those `within` allows (a set every rule asks for, read through its index).
 */
export function annotationGroups(
  db: Db,
  keys: GroupKeys,
  within?: { key: 'worker' | 'rating' | 'dimension'; values: readonly (number | null)[] },
): AnnotationGroup[] {
  const columns = [
    keys.worker ? sql`a.worker_id` : sql`NULL`,
    keys.rating ? sql`a.rating` : sql`NULL`,
    keys.dimension ? sql`a.dimension` : sql`NULL`,
    keys.day ? dayOf : sql`NULL`,
  ]
  const where =
    within === undefined
      ? sql`1`
      : condition(
          within.key === 'worker'
            ? { workerIds: within.values.filter((v): v is number => v !== null) }
            : within.key === 'rating'
              ? { ratings: within.values }
              : { dimensions: within.values.filter((v): v is number => v !== null) },
        )
  const used = columns.filter((_, i) => [keys.worker, keys.rating, keys.dimension, keys.day][i])
  return prepareRaw(
    db,
    sql`SELECT ${sql.join(columns)} FROM annotations a WHERE ${where}
        ${used.length > 0 ? sql`GROUP BY ${sql.join(used)}` : sql`LIMIT 1`}`,
  ) as AnnotationGroup[]
}

function prepareRaw(db: Db, fragment: SqlFragment): unknown[][] {
  return db
    .prepare(fragment.text)
    .raw()
    .all(...fragment.values) as unknown[][]
}

/**
 * Moves every annotation of the given groups to its group's rule: the groups drive, each read
 * through the annotations' index on its keys, so only the moved annotations are read.
 */
export function addGroupMoves(
  db: Db,
  keys: GroupKeys,
  groups: readonly { group: AnnotationGroup; rule: number; to: number }[],
): void {
  run(
    db,
    sql`INSERT INTO temp.policy_groups (worker_id, rating, dimension, day, rule, rating_to)
        SELECT value->>'$[0][0]', value->>'$[0][1]', value->>'$[0][2]', value->>'$[0][3]',
          value->>'$[1]', value->>'$[2]'
        FROM json_each(${JSON.stringify(groups.map((g) => [g.group, g.rule, g.to]))})`,
  )
  const on: SqlFragment[] = []
  if (keys.rating) on.push(sql`a.rating IS g.rating`)
  if (keys.worker) on.push(sql`a.worker_id IS g.worker_id`)
  if (keys.dimension) on.push(sql`a.dimension = g.dimension`)
  // A day is a range of the index's submitted_at; a group of undated annotations is apart.
  const days = keys.day
    ? [
        sql`g.day IS NOT NULL AND a.submitted_at >= g.day AND a.submitted_at < g.day + ${DAY}`,
        sql`g.day IS NULL AND a.submitted_at IS NULL`,
      ]
    : [sql`1`]
  for (const day of days) {
    // CROSS JOIN keeps the groups outside, as SQLite reads a CROSS JOIN in the order written.
    run(
      db,
      sql`INSERT INTO temp.policy_moves (id, rule, rating, was, worker_id, dimension)
          SELECT a.id, g.rule, g.rating_to, a.rating, a.worker_id, a.dimension
          FROM temp.policy_groups g CROSS JOIN annotations a
          WHERE ${sql.join([...on, day], ' AND ')}`,
    )
  }
}

/**
 * Adds the annotations rule `rule` selects, taking each from a later rule that had it (the first
 * rule that selects an annotation keeps it); returns how many it took.
 */
export function addRuleMoves(db: Db, rule: number, to: number, selection: RuleSelection): number {
  return run(
    db,
    sql`INSERT INTO temp.policy_moves (id, rule, rating, was, worker_id, dimension)
        SELECT a.id, ${rule}, ${to}, a.rating, a.worker_id, a.dimension
        FROM annotations a WHERE ${condition(selection)}
        ON CONFLICT (id) DO UPDATE SET rule = excluded.rule, rating = excluded.rating
          WHERE excluded.rule < policy_moves.rule`,
  ).changes
}

const moved = sql`was IS NOT rating`

export function ruleCounts(
  db: Db,
): { rule: number; selected: number; annotations: number; workers: number }[] {
  return all(
    db,
    sql`SELECT rule, count(*) AS selected, total(${moved}) AS annotations,
          count(DISTINCT CASE WHEN ${moved} THEN worker_id END) AS workers
        FROM temp.policy_moves GROUP BY rule`,
  )
}

export function moveTransitions(db: Db): PolicyTransition[] {
  return all<PolicyTransition>(
    db,
    sql`SELECT was AS "from", rating AS "to", count(*) AS annotations
        FROM temp.policy_moves WHERE ${moved}
        GROUP BY 1, 2 ORDER BY 1 DESC NULLS LAST, 2 DESC`,
  )
}

/**
 * Up to `perRule` moved annotations of each rule, spread over the rule's rows by a fixed hash of
 * the id (the same data gives the same samples). One bounded sort per rule of its own rows (an
 * index of the moved rows by rule), not one of every move.
 */
export function moveSamples(db: Db, perRule: number): PolicySample[] {
  // Built once the moves are in (a sort of the moved rows), so each rule reads only its own rows.
  db.exec(`CREATE INDEX IF NOT EXISTS temp.policy_moves_moved ON policy_moves (rule)
           WHERE was IS NOT rating`)
  const rules = pluckAll<number>(db, sql`SELECT rule FROM temp.policy_rule_notes ORDER BY rule`)
  return rules.flatMap((rule) =>
    all<PolicySample>(
      db,
      sql`SELECT x.id AS annotationId, x.id >> 4 AS submissionId, w.external_id AS worker,
            x.dimension, x.rule, x."from", x."to", coalesce(se.text, '') AS sentence,
            coalesce(t.specific_nl, '') AS specific, coalesce(t.general_nl, '') AS general
          FROM (SELECT id, rule, was AS "from", rating AS "to", dimension, worker_id
                FROM temp.policy_moves WHERE rule = ${rule} AND ${moved}
                ORDER BY (id * 2654435761) % 4294967296, id LIMIT ${perRule}) AS x
          LEFT JOIN workers w ON w.id = x.worker_id
          LEFT JOIN annotations a ON a.id = x.id
          LEFT JOIN sentences se ON se.story_id = a.story_id AND se.idx = a.sentence_index
          LEFT JOIN annotation_texts t ON t.annotation_id = x.id
          ORDER BY x.id`,
    ),
  )
}

/** Keeps only the moves that change a rating; returns how many remain. */
export function keepChangingMoves(db: Db): number {
  run(db, sql`DELETE FROM temp.policy_moves WHERE NOT (${moved})`)
  return pluck<number>(db, sql`SELECT count(*) FROM temp.policy_moves`) ?? 0
}

/**
 * The moves as item ratings to record: `id`, `value` and the note of the rule that took it. Read
 * after `keepChangingMoves`, inside the change set's transaction.
 */
export const moveRatings: SqlFragment = sql`SELECT m.id, m.rating AS value, n.note
  FROM temp.policy_moves m JOIN temp.policy_rule_notes n ON n.rule = m.rule`

/**
 * What the project looks like for "has anything changed since the dry run": the last change set
 * that wrote ratings or the rating scale, the last annotation, and the audit verdicts a policy
 * reads as facts. A triage mark or another setting in between changes nothing a policy reads.
 */
export function dataState(db: Db): string {
  const row = get<{ changeSet: number | null; annotation: number | null; audits: string }>(
    db,
    sql`SELECT (SELECT max(id) FROM (
            SELECT max(change_set_id) AS id FROM worker_ratings
            UNION ALL SELECT max(change_set_id) FROM item_ratings
            UNION ALL SELECT max(change_set_id) FROM rating_retractions
            UNION ALL SELECT max(change_set_id) FROM change_entries
              WHERE subject = 'setting' AND key = ${JSON.stringify(RATING_SCALE_SETTING)})) AS changeSet,
          (SELECT max(id) FROM annotations) AS annotation,
          (SELECT count(verdict) || '.' || coalesce(sum(verdict = 'yes'), 0) || '.' || coalesce(max(judged_at), 0)
           FROM audit_items) AS audits`,
  )
  return `${row?.changeSet ?? 0}.${row?.annotation ?? 0}.${row?.audits ?? ''}`
}

export interface PolicyRunRow {
  changeSetId: number
  name: string
  fileName: string
  script: string
  sha256: string
  params: string
  report: string
}

export function insertPolicyRun(db: Db, r: PolicyRunRow): void {
  run(
    db,
    sql`INSERT INTO policy_runs (change_set_id, name, file_name, script, sha256, params, report)
        VALUES (${r.changeSetId}, ${r.name}, ${r.fileName}, ${r.script}, ${r.sha256}, ${r.params}, ${r.report})`,
  )
}

export function policyRunByChangeSet(db: Db, changeSetId: number): PolicyRunRow | undefined {
  return get<PolicyRunRow>(
    db,
    sql`SELECT change_set_id AS changeSetId, name, file_name AS fileName, script, sha256, params, report
        FROM policy_runs WHERE change_set_id = ${changeSetId}`,
  )
}
