import type { ProtoqaQuestion } from '../../../shared/protoqa/types'
import {
  type Metric,
  type QuestionScore,
  type ScoreReport,
  type Similarity,
  scoreAll,
  scoreQuestion,
} from '../../../shared/protoqa/scoring'
import { synonymPairs } from './synonyms'
import { type WordNet, wordnetSimilarity } from './wordnet'

/** A question scored for the page: the score, and per kept answer the member it matched. */
export interface ExplainedScore {
  score: QuestionScore
  /** Per kept answer, the member of its assigned cluster it matched; null when none. */
  matched: (string | null)[]
}

/** A score with the member each kept answer matched, as the scorer found it. */
export function explain(score: QuestionScore): ExplainedScore {
  return { score, matched: score.answers.map((a) => a.member) }
}

/** What the WordNet thread does, by name: each takes WordNet and plain data, returns plain data. */
export const wordnetTasks = {
  synonyms: (wordnet: WordNet, { texts }: { texts: string[] }) => synonymPairs(wordnet, texts),
  scoreSet: (
    wordnet: WordNet,
    input: { targets: ProtoqaQuestion[]; predictions: Map<string, string[]> },
  ): ScoreReport => scoreAll(input.targets, input.predictions, similarityOf(wordnet)),
  scoreQuestion: (
    wordnet: WordNet,
    input: { target: ProtoqaQuestion; predictions: string[]; metric: Metric },
  ): ExplainedScore => {
    const similarity = similarityOf(wordnet)
    return explain(scoreQuestion(input.target, input.predictions, input.metric, similarity))
  },
}

export type WordNetTask = keyof typeof wordnetTasks
export type WordNetInput<K extends WordNetTask> = Parameters<(typeof wordnetTasks)[K]>[1]
export type WordNetOutput<K extends WordNetTask> = ReturnType<(typeof wordnetTasks)[K]>

// Pair scores are kept between requests: the page asks for one question after another.
let kept: { wordnet: WordNet; similarity: Similarity } | null = null

function similarityOf(wordnet: WordNet): Similarity {
  if (kept?.wordnet !== wordnet) kept = { wordnet, similarity: wordnetSimilarity(wordnet) }
  return kept.similarity
}
