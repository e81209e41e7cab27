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
interface ScoredAnswer {
  answer: string
  normalized: string
  /** Best similarity to any cluster (after rounding): 0 = incorrect. */
  best: number
  /** Index of the cluster the assignment gave it, or null (earned nothing). */
  cluster: number | null
  /** The member of that cluster whose similarity earned it its points; null when none. */
  member: string | null
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

/**
 * `scores[i][j]` = max over members of cluster j of sim(pred_i, member), rounded where the
 * similarity says; `members[i][j]` = the index of the first member that gave that maximum (-1
 * when none scored above 0), so the page can say which member an answer matched without scoring
 * again.
 */
function similarityMatrix(
  predictions: readonly string[],
  clusters: readonly ProtoqaCluster[],
  similarity: Similarity,
): { scores: number[][]; members: number[][] } {
  const members: number[][] = []
  const scores = predictions.map((p) => {
    const row: number[] = []
    members.push(row)
    return clusters.map((c) => {
      let best = 0
      let member = -1
      for (let m = 0; m < c.answers.length && best < 1; m++) {
        const s = similarity.score(p, c.answers[m] ?? '')
        if (s > best) {
          best = s
          member = m
        }
      }
      row.push(member)
      return similarity.rounds ? roundHalfEven(best) : best
    })
  })
  return { scores, members }
}

/** Rows up to and including the k-th whose best score is 0. */
function limitIncorrect(matrix: number[][], k: number): number[][] {
  let incorrect = 0
  for (let i = 0; i < matrix.length; i++) {
    if (rowBest(matrix[i] ?? []) === 0) {
      incorrect++
      if (incorrect >= k) return matrix.slice(0, i + 1)
    }
  }
  return matrix
}

/** The rows a metric keeps of a question's full similarity matrix. */
function keptRows(matrix: number[][], metric: Metric): number[][] {
  if (metric.kind === 'answers') return metric.k === null ? matrix : matrix.slice(0, metric.k)
  return metric.k === null ? matrix : limitIncorrect(matrix, metric.k)
}

function rowBest(row: readonly number[]): number {
  let best = 0
  for (const s of row) if (s > best) best = s
  return best
}

/** Points of the best assignment of the kept rows, each column weighted by its cluster's count. */
function assign(
  matrix: number[][],
  clusters: readonly ProtoqaCluster[],
): { points: number; columnOfRow: number[]; weighted: number[][] } {
  const weighted = matrix.map((row) => row.map((s, j) => s * (clusters[j]?.count ?? 0)))
  const { columnOfRow, total } = maxWeightAssignment(weighted)
  return { points: total, columnOfRow, weighted }
}

/** One member per cluster, by descending count (ties in file order): the oracle's answers. */
function representatives(clusters: readonly ProtoqaCluster[]): string[] {
  return clusters
    .map((c, index) => ({ c, index }))
    .sort((a, b) => b.c.count - a.c.count || a.index - b.index)
    .map(({ c }) => c.answers[0] ?? '')
}

/**
 * A question scored on several metrics: the similarity of every prediction (and of the oracle's
 * answers) to every cluster is computed once, each metric keeps its rows of it.
 */
function scoreQuestionOn(
  question: ProtoqaQuestion,
  predictions: readonly string[],
  metrics: readonly Metric[],
  similarity: Similarity = exactMatch,
): QuestionScore[] {
  const { clusters } = question
  const normalized = predictions.map((p) => normalizePrediction(p))
  const { scores: matrix, members } = similarityMatrix(normalized, clusters, similarity)
  const oracleMatrix = similarityMatrix(
    representatives(clusters).map((p) => normalizePrediction(p)),
    clusters,
    similarity,
  ).scores
  return metrics.map((metric) => {
    const kept = keptRows(matrix, metric)
    const { points, columnOfRow, weighted } = assign(kept, clusters)
    const answers = kept.map((row, i): ScoredAnswer => {
      const col = columnOfRow[i] ?? -1
      const earned = col >= 0 ? (weighted[i]?.[col] ?? 0) : 0
      const cluster = col >= 0 && earned > 0 ? col : null
      const member = cluster === null ? -1 : (members[i]?.[cluster] ?? -1)
      return {
        answer: predictions[i] ?? '',
        normalized: normalized[i] ?? '',
        best: rowBest(row),
        cluster,
        member: cluster === null ? null : (clusters[cluster]?.answers[member] ?? null),
        points: earned,
      }
    })
    if (predictions.length === 0) return { score: 0, points: 0, oracle: 0, answers }
    const oracle = assign(keptRows(oracleMatrix, metric), clusters).points
    return { score: oracle > 0 ? points / oracle : 0, points, oracle, answers }
  })
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
  const [score] = scoreQuestionOn(question, predictions, [metric], similarity)
  if (!score) throw new Error('no score for one metric')
  return score
}

interface MetricResult {
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
  const perMetric = metrics.map((): { perQuestion: Record<string, number>; sum: number } => ({
    perQuestion: {},
    sum: 0,
  }))
  for (const q of questions) {
    const scores = scoreQuestionOn(q, predictions.get(q.id) ?? [], metrics, similarity)
    scores.forEach(({ score }, m) => {
      const into = perMetric[m]
      if (!into) return
      into.perQuestion[q.id] = score
      into.sum += score
    })
  }
  metrics.forEach((metric, m) => {
    const { perQuestion, sum } = perMetric[m] ?? { perQuestion: {}, sum: 0 }
    report.metrics[metric.name] = {
      mean: questions.length === 0 ? 0 : sum / questions.length,
      perQuestion,
    }
  })
  return report
}
