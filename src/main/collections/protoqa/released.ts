import type { SavedClustering } from '../../../shared/protoqa/model'
import type { ProtoqaQuestion } from '../../../shared/protoqa/types'
import type { Db } from '../../db/connection'
import { currentClusterings } from './db/clusterings'
import { type QuestionRow, questionAnswers, questionRows } from './db/questions'

/** A question as it is released: its final clustering (recorded, else imported). */
export interface ReleasedQuestion {
  row: QuestionRow
  /** Raw answers after spelling fixes, answer → respondents, in first-imported order. */
  raw: Map<string, number>
  /** By descending count (ties in clustering order), members after fixes. */
  clusters: { id: string; count: number; answers: string[] }[]
  clustering: SavedClustering
}

export function releasedQuestion(db: Db, row: QuestionRow): ReleasedQuestion | null {
  const clusterings = currentClusterings(db, row.id)
  const clustering =
    clusterings.find((c) => c.role === 'final') ?? clusterings.find((c) => c.role === 'imported')
  if (!clustering) return null
  const fix = (a: string): string => clustering.fixes[a] ?? a
  const raw = new Map<string, number>()
  for (const a of questionAnswers(db, row.id))
    raw.set(fix(a.text), (raw.get(fix(a.text)) ?? 0) + a.count)
  const clusters = clustering.clusters
    .map((c, i) => ({
      answers: [...new Set(c.answers.map(fix))],
      count: clustering.counts[i] ?? 0,
      i,
    }))
    .sort((a, b) => b.count - a.count || a.i - b.i)
    .map((c, k) => ({ id: `${row.externalId}.${k}`, count: c.count, answers: c.answers }))
  return { row, raw, clusters, clustering }
}

export function releasedQuestions(db: Db): ReleasedQuestion[] {
  return questionRows(db)
    .map((row) => releasedQuestion(db, row))
    .filter((q): q is ReleasedQuestion => q !== null)
}

/** The scorer's view of released questions. */
export function scoringTargets(released: readonly ReleasedQuestion[]): ProtoqaQuestion[] {
  return released.map((q) => ({
    id: q.row.externalId,
    question: q.row.normalized,
    clusters: q.clusters,
  }))
}
