import type { Db } from '../../../db/connection'
import { all, pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'
import type {
  ClusteringDraft,
  ClusteringRole,
  SavedClustering,
} from '../../../../shared/protoqa/model'

export interface NewClustering {
  questionId: number
  role: ClusteringRole
  author: string
  decidedBy: string | null
  changeSetId: number
  /** The answers of the question, text → id. */
  answerIds: ReadonlyMap<string, number>
  clusters: { label: string; name: string; declaredCount: number | null; answers: string[] }[]
  invalid: readonly string[]
  fixes: Readonly<Record<string, string>>
  /** Epoch ms. */
  at: number
}

/** Adds a clustering (never edits one): the latest per question, role and author is current. */
export function addClustering(db: Db, c: NewClustering): number {
  const id = Number(
    run(
      db,
      sql`INSERT INTO protoqa_clusterings (id, question_id, role, author, decided_by, recorded_at, change_set_id)
          VALUES (${nextBandId(db, 'protoqa_clusterings')}, ${c.questionId}, ${c.role}, ${c.author}, ${c.decidedBy}, ${c.at}, ${c.changeSetId})`,
    ).lastInsertRowid,
  )
  const member = (answer: string, cluster: number | null, order: number): void => {
    const answerId = c.answerIds.get(answer)
    if (answerId === undefined) throw new Error(`unknown answer ${answer}`)
    const fixed = c.fixes[answer] ?? null
    run(
      db,
      sql`INSERT INTO protoqa_cluster_answers (clustering_id, answer_id, cluster, member_order, fixed)
          VALUES (${id}, ${answerId}, ${cluster}, ${order}, ${fixed === answer ? null : fixed})`,
    )
  }
  c.clusters.forEach((cluster, position) => {
    run(
      db,
      sql`INSERT INTO protoqa_clusters (clustering_id, position, label, name, declared_count)
          VALUES (${id}, ${position}, ${cluster.label}, ${cluster.name}, ${cluster.declaredCount})`,
    )
    cluster.answers.forEach((answer, order) => member(answer, position, order))
  })
  c.invalid.forEach((answer, order) => member(answer, null, order))
  // A fix of an answer left unclustered is kept too.
  const placed = new Set([...c.clusters.flatMap((x) => x.answers), ...c.invalid])
  Object.keys(c.fixes)
    .filter((a) => !placed.has(a) && c.fixes[a] !== a)
    .forEach((answer) => {
      const answerId = c.answerIds.get(answer)
      if (answerId === undefined) throw new Error(`unknown answer ${answer}`)
      run(
        db,
        sql`INSERT INTO protoqa_cluster_answers (clustering_id, answer_id, cluster, member_order, fixed)
            VALUES (${id}, ${answerId}, -1, 0, ${c.fixes[answer] ?? null})`,
      )
    })
  return id
}

interface ClusteringRow {
  id: number
  role: ClusteringRole
  author: string
  decidedBy: string | null
  recordedAt: number
}

/**
 * The current clustering of each role and author of a question (final and imported first), and
 * of the final ones the latest, whoever decided it. Latest goes by the change set's time, which
 * on a team replica is the log's (it grows with the place, and pending work comes after), so
 * every replica picks the same one; row ids differ between replicas.
 */
export function currentClusterings(db: Db, questionId: number): SavedClustering[] {
  const rows = all<ClusteringRow & { latest: number; latestFinal: number }>(
    db,
    sql`SELECT id, role, author, decidedBy, recordedAt, latest, latestFinal FROM (
          SELECT c.id, c.role, c.author, c.decided_by AS decidedBy, c.recorded_at AS recordedAt,
            row_number() OVER (PARTITION BY c.role, c.author
              ORDER BY s.created_at DESC, s.id DESC, c.id DESC) AS latest,
            row_number() OVER (PARTITION BY c.role = 'final'
              ORDER BY s.created_at DESC, s.id DESC, c.id DESC) AS latestFinal
          FROM protoqa_clusterings c JOIN change_sets s ON s.id = c.change_set_id
          WHERE c.question_id = ${questionId})
        WHERE latest = 1 AND (role <> 'final' OR latestFinal = 1)
        ORDER BY CASE role WHEN 'final' THEN 0 WHEN 'imported' THEN 1 ELSE 2 END, author`,
  )
  return rows.map(({ latest: _latest, latestFinal: _final, ...r }) => readClustering(db, r))
}

function readClustering(db: Db, row: ClusteringRow): SavedClustering {
  const clusters = all<{ position: number; name: string; declared: number | null }>(
    db,
    sql`SELECT position, name, declared_count AS declared FROM protoqa_clusters
        WHERE clustering_id = ${row.id} ORDER BY position`,
  )
  const members = all<{
    cluster: number | null
    text: string
    count: number
    fixed: string | null
  }>(
    db,
    sql`SELECT m.cluster, a.text, a.count, m.fixed FROM protoqa_cluster_answers m
        JOIN protoqa_answers a ON a.id = m.answer_id
        WHERE m.clustering_id = ${row.id} ORDER BY m.cluster, m.member_order`,
  )
  const draft: ClusteringDraft = {
    clusters: clusters.map((c) => ({ name: c.name, answers: [] })),
    invalid: [],
    fixes: {},
  }
  const sums = clusters.map(() => 0)
  for (const m of members) {
    if (m.fixed !== null) draft.fixes[m.text] = m.fixed
    if (m.cluster === null) draft.invalid.push(m.text)
    else if (m.cluster >= 0) {
      draft.clusters[m.cluster]?.answers.push(m.text)
      sums[m.cluster] = (sums[m.cluster] ?? 0) + m.count
    }
  }
  return {
    ...draft,
    id: row.id,
    role: row.role,
    author: row.author,
    decidedBy: row.decidedBy,
    recordedAt: row.recordedAt,
    counts: clusters.map((c, i) => c.declared ?? sums[i] ?? 0),
  }
}

/**
 * A clustering as it travels to a team's other replicas: its question by external id and its
 * answers by text, which every replica shares (row ids are each replica's own).
 */
export interface SharedClustering {
  question: string
  role: ClusteringRole
  author: string
  decidedBy: string | null
  recordedAt: number
  clusters: [position: number, label: string, name: string, declaredCount: number | null][]
  members: [answer: string, cluster: number | null, order: number, fixed: string | null][]
}

/** The clusterings a change set saved. */
export function clusteringsOfChangeSet(db: Db, changeSetId: number): SharedClustering[] {
  const rows = all<{ id: number; question: string } & Omit<SharedClustering, 'question'>>(
    db,
    sql`SELECT c.id, q.external_id AS question, c.role, c.author, c.decided_by AS decidedBy,
          c.recorded_at AS recordedAt
        FROM protoqa_clusterings c JOIN protoqa_questions q ON q.id = c.question_id
        WHERE c.change_set_id = ${changeSetId} ORDER BY c.id`,
  )
  return rows.map(({ id, ...c }) => ({
    question: c.question,
    role: c.role,
    author: c.author,
    decidedBy: c.decidedBy,
    recordedAt: c.recordedAt,
    clusters: db
      .prepare(
        `SELECT position, label, name, declared_count FROM protoqa_clusters
         WHERE clustering_id = ? ORDER BY position`,
      )
      .raw()
      .all(id) as SharedClustering['clusters'],
    members: db
      .prepare(
        `SELECT a.text, m.cluster, m.member_order, m.fixed FROM protoqa_cluster_answers m
         JOIN protoqa_answers a ON a.id = m.answer_id WHERE m.clustering_id = ? ORDER BY a.id`,
      )
      .raw()
      .all(id) as SharedClustering['members'],
  }))
}

/** Whether a change set's clusterings are here already (a join brought them with the tables). */
export function holdsClusteringsOf(db: Db, changeSetId: number): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM protoqa_clusterings WHERE change_set_id = ${changeSetId})`,
    ) === 1
  )
}

/**
 * Writes a clustering another replica saved into change set `changeSetId`; false when this
 * replica lacks its question or one of its answers.
 */
export function insertSharedClustering(db: Db, changeSetId: number, c: SharedClustering): boolean {
  const questionId = pluck<number>(
    db,
    sql`SELECT id FROM protoqa_questions WHERE external_id = ${c.question}`,
  )
  if (questionId === undefined) return false
  const answers = new Map(
    all<{ id: number; text: string }>(
      db,
      sql`SELECT id, text FROM protoqa_answers WHERE question_id = ${questionId}`,
    ).map((a) => [a.text, a.id]),
  )
  if (c.members.some(([text]) => !answers.has(text))) return false
  const id = Number(
    run(
      db,
      sql`INSERT INTO protoqa_clusterings (id, question_id, role, author, decided_by, recorded_at, change_set_id)
          VALUES (${nextBandId(db, 'protoqa_clusterings')}, ${questionId}, ${c.role}, ${c.author}, ${c.decidedBy}, ${c.recordedAt}, ${changeSetId})`,
    ).lastInsertRowid,
  )
  for (const [position, label, name, declared] of c.clusters) {
    run(
      db,
      sql`INSERT INTO protoqa_clusters (clustering_id, position, label, name, declared_count)
          VALUES (${id}, ${position}, ${label}, ${name}, ${declared})`,
    )
  }
  for (const [text, cluster, order, fixed] of c.members) {
    run(
      db,
      sql`INSERT INTO protoqa_cluster_answers (clustering_id, answer_id, cluster, member_order, fixed)
          VALUES (${id}, ${answers.get(text) ?? null}, ${cluster}, ${order}, ${fixed})`,
    )
  }
  return true
}
