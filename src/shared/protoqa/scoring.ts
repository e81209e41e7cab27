import { maxWeightAssignment } from './hungarian'
import { normalizePrediction } from './normalize'
import type { ProtoqaCluster, ProtoqaQuestion } from './types'

/**
 * Max Answers@k and Max Incorrect@k over a question's clusters, as the official ProtoQA evaluator
 * computes them (FORMATS.md §6.2).
 */
export interface Metric {
  /** The name the official evaluator prints. */
  name: string
  kind: 'answers' | 'incorrect'
  /** The cut-off; null = none. */
  k: number | null
}

export const METRICS: readonly Metric[] = [
  { name: 'Max Answers - None', kind: 'answers', k: null },
  { name: 'Max Answers - 1', kind: 'answers', k: 1 },
  { name: 'Max Answers - 3', kind: 'answers', k: 3 },
  { name: 'Max Answers - 5', kind: 'answers', k: 5 },
  { name: 'Max Answers - 10', kind: 'answers', k: 10 },
  { name: 'Max Incorrect - None', kind: 'incorrect', k: null },
  { name: 'Max Incorrect - 1', kind: 'incorrect', k: 1 },
  { name: 'Max Incorrect - 3', kind: 'incorrect', k: 3 },
  { name: 'Max Incorrect - 5', kind: 'incorrect', k: 5 },
]

/** How alike a (normalised) predicted answer and a cluster member are, in [0, 1]. */
export interface Similarity {
  name: string
  score(prediction: string, member: string): number
  /** Scores are rounded half to even before use (the evaluator does so for WordNet). */
  rounds: boolean
}

export const exactMatch: Similarity = {
  name: 'exact',
  score: (prediction, member) => (prediction === member ? 1 : 0),
  rounds: false,
}

/** Python's `round` / numpy's `np.round`: halves go to the even neighbour. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x)
  const diff = x - floor
  if (diff > 0.5) return floor + 1
  if (diff < 0.5) return floor
  return floor % 2 === 0 ? floor : floor + 1
}

/** One predicted answer as it was scored: what it became and which cluster it earned. */
export interface ScoredAnswer {
  answer: string
  normalized: string
  /** Best similarity to any cluster (after rounding): 0 = incorrect. */
  best: number
  /** Index of the cluster the assignment gave it, or null (earned nothing). */
  cluster: number | null
  /** Points earned: similarity × the cluster's count. */
  points: number
}

export interface QuestionScore {
  score: number
  points: number
  oracle: number
  /** The predictions the metric kept, in order, with their assignment. */
  answers: ScoredAnswer[]
}

/** `S[i][j]` = max over members of cluster j of sim(pred_i, member), rounded where the similarity says. */
export function similarityMatrix(
  predictions: readonly string[],
  clusters: readonly ProtoqaCluster[],
  similarity: Similarity,
): number[][] {
  return predictions.map((p) =>
    clusters.map((c) => {
      let best = 0
      for (const member of c.answers) {
        const s = similarity.score(p, member)
        if (s > best) best = s
        if (best >= 1) break
      }
      return similarity.rounds ? roundHalfEven(best) : best
    }),
  )
}

/** Rows up to and including the k-th whose best score is 0. */
function limitIncorrect(matrix: number[][], k: number): number[][] {
  let incorrect = 0
  for (let i = 0; i < matrix.length; i++) {
    if (Math.max(0, ...(matrix[i] ?? [])) === 0) {
      incorrect++
      if (incorrect >= k) return matrix.slice(0, i + 1)
    }
  }
  return matrix
}

function evaluate(
  predictions: readonly string[],
  clusters: readonly ProtoqaCluster[],
  metric: Metric,
  similarity: Similarity,
): { points: number; answers: ScoredAnswer[] } {
  const kept =
    metric.kind === 'answers' && metric.k !== null ? predictions.slice(0, metric.k) : predictions
  const normalized = kept.map((p) => normalizePrediction(p))
  let matrix = similarityMatrix(normalized, clusters, similarity)
  if (metric.kind === 'incorrect' && metric.k !== null) matrix = limitIncorrect(matrix, metric.k)
  const weighted = matrix.map((row) => row.map((s, j) => s * (clusters[j]?.count ?? 0)))
  const { columnOfRow, total } = maxWeightAssignment(weighted)
  const answers = matrix.map((row, i): ScoredAnswer => {
    const col = columnOfRow[i] ?? -1
    const points = col >= 0 ? (weighted[i]?.[col] ?? 0) : 0
    return {
      answer: kept[i] ?? '',
      normalized: normalized[i] ?? '',
      best: Math.max(0, ...row),
      cluster: col >= 0 && points > 0 ? col : null,
      points,
    }
  })
  return { points: total, answers }
}

/**
 * One question's score for one metric: the assignment's points over the oracle's (one member
 * per cluster, by descending count, ties in file order). An empty list, or clusters whose counts
 * are all 0, score 0 (the reference scorer crashes or divides by zero there).
 */
export function scoreQuestion(
  question: ProtoqaQuestion,
  predictions: readonly string[],
  metric: Metric,
  similarity: Similarity = exactMatch,
): QuestionScore {
  const { clusters } = question
  const { points, answers } = evaluate(predictions, clusters, metric, similarity)
  if (predictions.length === 0) return { score: 0, points: 0, oracle: 0, answers }
  const representatives = clusters
    .map((c, index) => ({ c, index }))
    .sort((a, b) => b.c.count - a.c.count || a.index - b.index)
    .map(({ c }) => c.answers[0] ?? '')
  const oracle = evaluate(representatives, clusters, metric, similarity).points
  return { score: oracle > 0 ? points / oracle : 0, points, oracle, answers }
}

export interface MetricResult {
  mean: number
  perQuestion: Record<string, number>
}

/** `winnow protoqa score --json`'s document. */
export interface ScoreReport {
  metrics: Record<string, MetricResult>
  /** Questions with no predictions (scored 0). */
  missing: string[]
}

/**
 * Every metric over every target question, per question and the unweighted mean. A question
 * without predictions scores 0, as an empty list does.
 */
export function scoreAll(
  questions: readonly ProtoqaQuestion[],
  predictions: ReadonlyMap<string, readonly string[]>,
  similarity: Similarity = exactMatch,
  metrics: readonly Metric[] = METRICS,
): ScoreReport {
  const report: ScoreReport = { metrics: {}, missing: [] }
  for (const q of questions) if (!predictions.has(q.id)) report.missing.push(q.id)
  for (const metric of metrics) {
    const perQuestion: Record<string, number> = {}
    let sum = 0
    for (const q of questions) {
      const { score } = scoreQuestion(q, predictions.get(q.id) ?? [], metric, similarity)
      perQuestion[q.id] = score
      sum += score
    }
    report.metrics[metric.name] = {
      mean: questions.length === 0 ? 0 : sum / questions.length,
      perQuestion,
    }
  }
  return report
}
